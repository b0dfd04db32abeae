"""Each adapter loads its own framework and no other: `import chat_ui.gradio` loads neither NiceGUI
nor Streamlit, `import chat_ui.streamlit` neither NiceGUI nor Gradio (each costs a second or more at
start, and a Streamlit app has no use for a web server of NiceGUI's). Checked in a fresh interpreter,
which lists every module it loaded."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

FRAMEWORKS = {"nicegui", "gradio", "streamlit"}


def loaded_frameworks(module: str) -> set[str]:
    code = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    return {name.partition(".")[0] for name in json.loads(result.stdout)} & FRAMEWORKS


@pytest.mark.parametrize(
    ("module", "framework"), [("chat_ui.gradio", "gradio"), ("chat_ui.streamlit", "streamlit")]
)
def test_an_adapter_loads_only_its_own_framework(module: str, framework: str) -> None:
    pytest.importorskip(framework, reason=f"needs the {framework} extra")
    assert loaded_frameworks(module) == {framework}

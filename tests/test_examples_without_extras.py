"""Every example in `examples/` run without what it needs says so in one line, with the command
that installs it where it runs, and exits 2, never with a traceback: run by the checkout's Python
without the example's extra (its packages hidden), and by a Python without the project at all (a
new virtual environment without packages)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = {
    "agui_agent.py": ("ag-ui", ("pydantic_ai", "ag_ui")),
    "gradio_chat.py": ("gradio", ("gradio",)),
    "streamlit_chat.py": ("streamlit", ("streamlit",)),
}
"""Each example, the extra it needs, and the packages of that extra it imports."""
HIDING = """
import runpy, sys
path, hidden = sys.argv[1], sys.argv[2].split(",")
for name in hidden:
    sys.modules[name] = None  # not installed: its import fails
sys.argv = [path]
runpy.run_path(path, run_name="__main__")
"""


def test_every_example_is_listed_here() -> None:
    assert sorted(path.name for path in (ROOT / "examples").glob("*.py")) == sorted(EXAMPLES)


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Python without the project or any package of it."""
    folder = tmp_path_factory.mktemp("bare")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    return folder / "bin" / "python"


def ran(command: list[str], where: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=where, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_without_its_extra_an_example_names_the_pip_of_the_python_running_it(
    name: str, tmp_path: Path
) -> None:
    extra, hidden = EXAMPLES[name]
    script = f"examples/{name}"
    result = ran([sys.executable, "-c", HIDING, str(ROOT / script), ",".join(hidden)], tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    pip = Path(sys.executable).with_name("pip").relative_to(ROOT)
    assert result.stderr == (
        f"{script} needs the {extra} extra ({hidden[0]} is not installed): in {ROOT}, the "
        f"checkout this runs from, run {pip} install -e '.[{extra}]'\n"
    )


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_run_by_a_python_without_the_project_an_example_names_the_checkouts_own(
    name: str, bare_python: Path, tmp_path: Path
) -> None:
    extra, _hidden = EXAMPLES[name]
    script = f"examples/{name}"
    result = ran([str(bare_python), str(ROOT / script)], tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    venv = (
        ".venv"
        if (ROOT / ".venv" / "bin" / "python").exists()
        else "python3 -m venv .venv && .venv"
    )
    assert result.stderr == (
        f"{script} needs the {extra} extra, and this Python ({bare_python}) does not have "
        f"agent-choices: in {ROOT}, the checkout this runs from, run {venv}/bin/pip install -e "
        f"'.[{extra}]', then run it with .venv/bin/python\n"
    )

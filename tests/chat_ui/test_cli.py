"""`choices-chat`: flags, script errors without a traceback, and what it serves with."""

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from nicegui import ui
from nicegui.storage import Storage

from chat_ui.__main__ import main


def test_bad_script_exits_non_zero_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text('{"not": "a list"}', encoding="utf-8")
    environment = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
    result = subprocess.run(
        [sys.executable, "-m", "chat_ui", "--agent", "script", "--script", str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
        check=False,
    )
    assert result.returncode != 0
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("choices-chat: script file")
    assert "JSON array of strings" in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_script_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--agent", "script", "--script", str(tmp_path / "nope.json")])
    assert str(caught.value.code).startswith(f"choices-chat: script file {tmp_path / 'nope.json'}")


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--agent", "gpt"], "invalid choice"),
        (["--port", "eighty"], "invalid int value"),
        (["--agent", "script"], "--agent script needs --script FILE"),
        (["--script", "x.json"], "--script is only used with --agent script"),
    ],
)
def test_bad_flags_are_argparse_errors(
    argv: list[str], problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert problem in capsys.readouterr().err


def test_defaults_serve_the_demo_on_localhost_8080(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("NICEGUI_STORAGE_PATH", raising=False)
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    monkeypatch.setattr(Storage, "path", Storage.path)  # main() sets it; restored afterwards
    pages: list[tuple[str, dict[str, Any]]] = []
    served: dict[str, Any] = {}

    def record_page(path: str, **options: Any) -> Any:
        pages.append((path, options))
        return lambda page_function: page_function

    # Recorded, not registered: nothing is left behind in NiceGUI's app for later tests.
    monkeypatch.setattr(ui, "page", record_page)
    monkeypatch.setattr(ui, "run", lambda **options: served.update(options))
    main([])
    assert pages == [("/", {"title": "Choices chat", "language": "en-US", "dark": None})]
    assert served["host"] == "127.0.0.1"
    assert served["port"] == 8080
    assert served["show"] is True
    assert served["reload"] is False
    kept = (tmp_path / "chat" / "cookie-secret").read_text(encoding="ascii").strip()
    assert served["storage_secret"] == kept, "the cookie secret outlives the run"
    assert Storage.path == (tmp_path / "chat").resolve(), "and so do the conversations"


def test_without_the_extra_it_names_the_extra_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Here rather than with the other `--agent llm` tests, which need the extra: this one must run
    where it is missing (and pretends it is, where it is not)."""
    for module in [name for name in sys.modules if name.startswith("chat_ui._llm")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "pydantic_ai", None)  # as if not installed
    with pytest.raises(SystemExit) as caught:
        main(["--agent", "llm", "--model", "openai:gpt-4o-mini"])
    assert caught.value.code == 2
    message = capsys.readouterr().err
    assert "--agent llm needs the llm extra" in message
    assert "pip install 'agent-choices[llm]'" in message

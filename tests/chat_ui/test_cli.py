"""`choices-chat`: flags, script errors without a traceback, a port that is taken, the address it
prints, and what it serves with."""

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chat_cli import exit_message
from nicegui import ui
from nicegui.storage import Storage

import chat_ui.__main__ as cli
from chat_ui.__main__ import main
from chat_ui._command_line._options import parse
from present_choices import _extras

ROOT = Path(__file__).resolve().parents[2]
ADDRESS_LINE = re.compile(
    r"choices-chat: the chat is at (http://127\.0\.0\.1:(\d+)) \(Ctrl-C stops it\)"
)


def environment(home: Path) -> dict[str, str]:
    """A choices-chat of the test's own: its storage in `home`, not believing it runs in pytest,
    nor under make (`make unit` runs these tests; `make demo` words its hints for make)."""
    hidden = ("PYTEST_CURRENT_TEST", "NICEGUI_STORAGE_PATH", "MAKELEVEL", "MAKEFLAGS")
    variables = {key: value for key, value in os.environ.items() if key not in hidden}
    return variables | {"AGENT_CHOICES_HOME": str(home)}


def run_chat(home: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """`choices-chat ARGUMENTS` in a process of its own (one that exits at once, on a mistake)."""
    return subprocess.run(
        [sys.executable, "-m", "chat_ui", *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment(home),
        check=False,
    )


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port another program listens on while the test runs."""
    with socket.create_server(("127.0.0.1", 0)) as taken:
        yield taken.getsockname()[1]


def test_bad_script_exits_2_with_one_line_and_no_traceback(tmp_path: Path) -> None:
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
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("choices-chat: script file")
    assert "JSON array of strings" in result.stderr
    assert "Traceback" not in result.stderr


def test_regression_a_mistyped_option_gets_the_closest_one(tmp_path: Path) -> None:
    # `choices-chat --agnet demo` said only "unrecognized arguments: --agnet demo".
    result = run_chat(tmp_path, "--agnet", "demo")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("usage: choices-chat ")
    assert result.stderr.endswith(
        "choices-chat: error: unrecognized arguments: --agnet demo (did you mean --agent?)\n"
    )


def in_a_terminal_of(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal's language is `language` (its `LANG`; no `LC_ALL` or `LC_MESSAGES` over it)."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", language)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "C.UTF-8",
            "choices-chat: error: argument --agent: invalid choice: 'dmeo'; did you mean demo? "
            "(choose from demo, script, llm, ag-ui)",
        ),
        (
            "zh_CN.UTF-8",
            "choices-chat：错误：参数 --agent：无效的选项：'dmeo'；您是想输入 demo 吗？（可选：demo, "
            "script, llm, ag-ui）",
        ),
    ],
)
def test_a_mistyped_choice_gets_the_closest_one(
    language: str, said: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    in_a_terminal_of(language, monkeypatch)
    assert exit_message(["--agent", "dmeo"], capsys).endswith(f"{said}\n")


def test_missing_script_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--agent", "script", "--script", str(tmp_path / "nope.json")])
    assert caught.value.code == 2
    assert capsys.readouterr().err.startswith(f"choices-chat: script file {tmp_path / 'nope.json'}")


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
    monkeypatch.setattr(cli, "_claim_port", lambda host, port: port)  # 8080 may be in use here
    main([])
    assert pages == [("/", {"title": "Choices chat", "language": "en-US", "dark": None})]
    assert served["host"] == "127.0.0.1"
    assert served["port"] == 8080
    assert served["show"] is True
    assert served["show_welcome_message"] is False, "its own line goes to stderr instead"
    assert served["reload"] is False
    kept = (tmp_path / "chat" / "cookie-secret").read_text(encoding="ascii").strip()
    assert served["storage_secret"] == kept, "the cookie secret outlives the run"
    assert Storage.path == (tmp_path / "chat").resolve(), "and so do the conversations"


def test_regression_a_port_in_use_exits_2_with_one_line_before_claiming_to_be_ready(
    tmp_path: Path, taken_port: int
) -> None:
    # It printed "NiceGUI ready to go on http://127.0.0.1:8080", then uvicorn's raw error, and
    # exited 3.
    result = run_chat(tmp_path, "--port", str(taken_port), "--no-show")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"choices-chat: port {taken_port} on 127.0.0.1 is in use; choose another with --port PORT "
        "(--port 0 picks a free one)\n"
    )


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_demo_passes_its_port_through(tmp_path: Path, taken_port: int) -> None:
    # The Makefile's own recipe, run for real: only the install step is left out (BASE_STAMP=),
    # and the commands come from the environment these tests run in (BIN=).
    scripts = Path(sys.executable).parent
    result = subprocess.run(
        [
            "make",
            "-s",
            "-C",
            str(ROOT),
            "demo",
            f"PORT={taken_port}",
            "BASE_STAMP=",
            f"BIN={scripts}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment(tmp_path),
        check=False,
    )
    assert result.returncode != 0
    # In make's words: `--port` is not what the person typed.
    assert result.stderr.startswith(
        f"choices-chat: port {taken_port} on 127.0.0.1 is in use; choose another with "
        "make demo PORT=<a free port> (PORT=0 picks one)\n"
    )


def test_port_0_serves_on_a_free_port_and_no_show_still_prints_the_real_address_once(
    tmp_path: Path,
) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "chat_ui", "--port", "0", "--no-show"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(tmp_path),
    )
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        found = ADDRESS_LINE.fullmatch(line.strip())
        assert found, line
        url, port = found.group(1), int(found.group(2))
        assert port not in (0, 8080)
        assert answers(url + "/"), f"nothing serves at the address printed, {url}"
    finally:
        server.terminate()
        stdout, stderr = server.communicate(timeout=20)
    assert "ready to go" not in stdout + stderr
    assert ADDRESS_LINE.search(stderr) is None, "the address is printed once"


def answers(url: str) -> bool:
    """Whether an HTTP server answers at `url` within 30 s (any status will do)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return True
        except urllib.error.HTTPError:
            return True
        except OSError:
            time.sleep(0.1)
    return False


def without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Here rather than with the other `--agent llm` tests, which need the extra: these must run
    where it is missing (and pretend it is, where it is not)."""
    for module in [name for name in sys.modules if name.startswith("chat_ui._agents.llm")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "pydantic_ai", None)  # as if not installed


def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, with_pip: bool) -> Path:
    """A checkout of agent-choices, as `make demo` leaves it, that this chat runs from: with the
    Python of its `.venv` (and pip beside it, or not)."""
    root = tmp_path / "agent-choices"
    (root / "present_choices").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "agent-choices"\n', encoding="utf-8")
    scripts = root / ".venv" / "bin"
    scripts.mkdir(parents=True)
    if with_pip:
        (scripts / "pip").touch()
    monkeypatch.setattr(_extras, "__file__", str(root / "present_choices" / "_extras.py"))
    monkeypatch.setattr(sys, "executable", str(scripts / "python"))
    return root


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "C.UTF-8",
            "--agent llm needs the llm extra (pydantic_ai is not installed): in {root}, the "
            "checkout this runs from, run .venv/bin/pip install -e '.[llm]'",
        ),
        (
            "zh_CN.UTF-8",
            "--agent llm 需要 llm 附加组件（未安装 pydantic_ai）：在 {root}（运行本程序的代码检出目录）"
            "中运行 .venv/bin/pip install -e '.[llm]'",
        ),
    ],
)
def test_regression_in_a_checkout_the_extra_is_installed_from_the_checkout(
    language: str,
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    # It said pip install 'agent-choices[llm]', which fails there (the package is not on the
    # index); then pip install -e '.[llm]', which installs into whatever pip the shell finds, not
    # the checkout's .venv; and both after the whole usage block.
    in_a_terminal_of(language, monkeypatch)
    without_the_extra(monkeypatch)
    root = checkout(tmp_path, monkeypatch, with_pip=True)
    message = exit_message(["--agent", "llm", "--model", "openai:gpt-4o-mini"], capsys)
    assert message == f"choices-chat: {said.format(root=root)}\n"


def test_in_a_checkout_without_pip_beside_python_it_runs_pip_as_a_module(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    without_the_extra(monkeypatch)
    checkout(tmp_path, monkeypatch, with_pip=False)
    message = exit_message(["--agent", "llm", "--model", "openai:gpt-4o-mini"], capsys)
    assert message.endswith("run .venv/bin/python -m pip install -e '.[llm]'\n")


def test_an_installed_package_names_the_extra_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    without_the_extra(monkeypatch)
    installed = tmp_path / "site-packages" / "present_choices" / "_extras.py"
    monkeypatch.setattr(_extras, "__file__", str(installed))
    message = exit_message(["--agent", "llm", "--model", "openai:gpt-4o-mini"], capsys)
    assert message == (
        "choices-chat: --agent llm needs the llm extra (pydantic_ai is not installed): "
        "run pip install 'agent-choices[llm]'\n"
    )


def test_the_agent_comes_from_the_variables_the_examples_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CHOICES_CHAT_AGENT", "llm")
    monkeypatch.setenv("CHOICES_CHAT_MODEL", "openai:qwen2.5")
    monkeypatch.setenv("CHOICES_CHAT_BASE_URL", "http://localhost:11434/v1")
    _, args = parse([])
    assert (args.agent, args.model, args.base_url) == (
        "llm",
        "openai:qwen2.5",
        "http://localhost:11434/v1",
    )
    _, args = parse(["--model", "openai:gpt-4o-mini"])
    assert args.model == "openai:gpt-4o-mini", "an option wins over its variable"


def test_options_win_and_variables_of_another_agent_are_left_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CHOICES_CHAT_AGENT", "ag-ui")
    monkeypatch.setenv("CHOICES_CHAT_URL", "http://127.0.0.1:8000/agent")
    monkeypatch.setenv("CHOICES_CHAT_MODEL", "openai:gpt-4o-mini")
    _, args = parse(["--agent", "demo"])
    assert (args.agent, args.url, args.model) == ("demo", None, None)
    _, args = parse([])
    assert (args.agent, args.url) == ("ag-ui", "http://127.0.0.1:8000/agent")


def test_a_bad_variable_is_a_usage_error_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CHOICES_CHAT_AGENT", "gpt")
    with pytest.raises(SystemExit) as caught:
        parse([])
    assert caught.value.code == 2
    assert capsys.readouterr().err.endswith(
        "error: CHOICES_CHAT_AGENT must be demo, script, llm or ag-ui, got 'gpt'\n"
    )

"""`provide-choice` (the commands that validate: serve, ask, inbox, history) builds each pydantic model
on first use: the MCP SDK's hundreds of message models, and the contract's, cost nothing until a
message needs one. Each case that changes pydantic's default runs in a fresh Python, since the
change holds for the whole process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from provide_choice._commands import _model_builds


def run(code: str, environment: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=environment,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_a_model_defined_after_it_is_built_when_first_validated_and_then_checks_as_ever() -> None:
    printed = run(
        "from provide_choice._commands._model_builds import build_models_on_first_use\n"
        "assert build_models_on_first_use()\n"
        "import pydantic\n"
        "class Late(pydantic.BaseModel):\n"
        "    count: int\n"
        "before = Late.__pydantic_complete__\n"
        "print(before, Late(count='3').count, Late.__pydantic_complete__)\n"
        "try:\n"
        "    Late(count='three')\n"
        "except pydantic.ValidationError as error:\n"
        "    print(error.errors()[0]['type'])\n"
    )
    assert printed.splitlines() == ["False 3 True", "int_parsing"]


def test_the_sdk_s_messages_wait_for_their_first_use_and_then_serialize_as_ever() -> None:
    printed = run(
        "from provide_choice._commands._model_builds import build_models_on_first_use\n"
        "build_models_on_first_use()\n"
        "import mcp_types\n"
        "tool = mcp_types.Tool\n"
        "print(tool.__pydantic_complete__)\n"
        "listed = tool(name='ask', input_schema={'type': 'object'})\n"
        "print(tool.__pydantic_complete__, listed.model_dump(by_alias=True, exclude_none=True))\n"
    )
    assert printed.splitlines() == [
        "False",
        "True {'name': 'ask', 'inputSchema': {'type': 'object'}}",
    ]


def test_models_are_built_as_defined_without_it() -> None:
    printed = run(
        "import pydantic\n"
        "class Early(pydantic.BaseModel):\n"
        "    count: int\n"
        "print(Early.__pydantic_complete__)\n"
    )
    assert printed == "True"


@pytest.mark.parametrize("version", ["2.13.3", "2.7.0", "1.10.21"])
def test_an_older_pydantic_keeps_building_models_as_they_are_defined(version: str) -> None:
    """Before 2.14, two threads meeting a model at once could see it half built."""
    printed = run(
        "import pydantic\n"
        f"pydantic.VERSION = {version!r}\n"
        "from provide_choice._commands._model_builds import build_models_on_first_use\n"
        "print(build_models_on_first_use(), 'defer_build' in pydantic.BaseModel.model_config)\n"
        "class Early(pydantic.BaseModel):\n"
        "    count: int\n"
        "print(Early.__pydantic_complete__)\n"
    )
    assert printed.splitlines() == ["False False", "True"]


def test_the_command_run_as_a_process_builds_on_first_use_and_a_program_calling_it_keeps_its_own(
    tmp_path: Path,
) -> None:
    """`provide-choice history` as a command defers; `main([...])` called by a program (a test,
    an embedding app) leaves that program's pydantic as it was."""
    code = (
        "import sys, pydantic\n"
        "from provide_choice.__main__ import main\n"
        "{call}\n"
        "print('defer_build' in pydantic.BaseModel.model_config)\n"
    )
    environment = {**os.environ, "AGENT_CHOICES_HOME": str(tmp_path)}
    as_program = run(code.format(call="main(['history'])"), environment)
    as_command = run(
        code.format(call="sys.argv = ['provide-choice', 'history']; main()"), environment
    )
    assert (as_program.splitlines()[-1], as_command.splitlines()[-1]) == ("False", "True")


@pytest.mark.parametrize(
    ("version", "release"),
    [
        ("2.14.4", (2, 14)),
        ("2.15.0b1", (2, 15)),
        ("3.0", (3, 0)),
        ("2.14rc1", (2, 14)),
        ("dev", (0, 0)),
    ],
)
def test_the_release_is_read_from_pydantic_s_version(
    version: str, release: tuple[int, int]
) -> None:
    assert _model_builds._release(version) == release


def test_the_server_s_warming_builds_the_package_s_own_models_and_leaves_the_sdk_s_waiting() -> (
    None
):
    """What a call validates with is ready before the first call; the SDK's other messages wait."""
    printed = run(
        "from provide_choice._commands._model_builds import build_models_on_first_use\n"
        "build_models_on_first_use()\n"
        "import mcp_types\n"
        "from provide_choice._contract._request import ProvideChoiceRequest\n"
        "from provide_choice._contract._response import ProvideChoiceResponse\n"
        "from provide_choice._server._warming import build_own_models\n"
        "models = (ProvideChoiceRequest, ProvideChoiceResponse, mcp_types.CreateMessageRequest)\n"
        "print([model.__pydantic_complete__ for model in models])\n"
        "build_own_models()\n"
        "print([model.__pydantic_complete__ for model in models])\n"
    )
    assert printed.splitlines() == ["[False, False, False]", "[True, True, False]"]

"""`choices-chat --agent llm --tools MODULE:NAME`: the agent's own tools, found by name.

`NAME` in `MODULE` is a function, a pydantic-ai `Tool` (say `Tool(deploy, requires_approval=True)`,
which asks the person first), or a list or tuple of them. `MODULE` is imported as Python would from
the current directory, so a `tools.py` beside the command is `--tools tools:TOOLS`. Every way this
can go wrong is a `ToolsError` that says what `--tools` expects.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic_ai import Tool

TOOLS = "a function, a pydantic-ai Tool, or a list of them"
EXPECTED = f"MODULE:NAME, where NAME is {TOOLS}"
UserTool = Tool[Any] | Callable[..., Any]


class ToolsError(ValueError):
    """A `--tools` value that gives no tools, with what was expected."""


def load_tools(spec: str) -> list[UserTool]:
    """The tools `spec` (`MODULE:NAME`) names, in their order."""
    module_name, colon, name = spec.partition(":")
    if not colon or not module_name or not name:
        raise ToolsError(f"--tools {spec!r} is not {EXPECTED}")
    here = str(Path.cwd())
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name and not module_name.startswith(f"{error.name}."):
            raise ToolsError(f"--tools {spec!r}: importing {module_name} failed: {error}") from None
        raise ToolsError(
            f"--tools {spec!r}: no module {module_name} here ({here}) or on the Python path"
        ) from None
    except Exception as error:  # the person's module may fail in any way; say how, not a traceback
        kind = type(error).__name__
        raise ToolsError(
            f"--tools {spec!r}: importing {module_name} failed: {kind}: {error}"
        ) from None
    try:
        found = getattr(module, name)
    except AttributeError:
        raise ToolsError(f"--tools {spec!r}: {module_name} has no {name}") from None
    tools = list(found) if isinstance(found, list | tuple) else [found]
    if not tools:
        raise ToolsError(f"--tools {spec!r}: {name} is empty; it must be {TOOLS}")
    for tool in tools:
        if not (isinstance(tool, Tool) or callable(tool)):
            kind = type(tool).__name__
            raise ToolsError(f"--tools {spec!r}: {name} holds a {kind}; it must be {TOOLS}")
    return tools

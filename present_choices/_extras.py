"""What a program says when it needs an optional extra that is not installed: one line naming what
is missing, with the command that adds it where the program runs, and exit status 2.

`choices-chat --agent llm`, the agent settings of the Gradio and Streamlit front ends, and every
example in `examples/` need extras; they all word it here, for where they run:

- a checkout whose Python has the project (`make demo` made `.venv`): that Python's own pip, with
  the checkout installed editable (`.venv/bin/pip install -e '.[ag-ui]'`, which no shell has on its
  path);
- a checkout run by a Python without the project (`python3 examples/agui_agent.py`): its `.venv`'s
  pip (made first, where there is none), and its Python to run the program with;
- an installed package: the package index (`pip install 'agent-choices[llm]'`).

Only the standard library loads here (an example imports this before it knows whether anything
else is installed), and this package's own names load on first use.
"""

from __future__ import annotations

import importlib.metadata
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from present_choices._translation import Translation, terminal_translation

DISTRIBUTION = "agent-choices"
USAGE_ERROR = 2
VENV = ".venv"


def missing_extra(
    what: str, extra: str, error: ImportError, translation: Translation | None = None
) -> str:
    """The line that says `what` (an option, a setting, a program) needs `extra`, which `error`
    (the import that failed) shows missing, and the command that installs it here."""
    _ = translation or terminal_translation()
    missing = (error.name or str(error)).partition(".")[0]  # the package, not a part of it
    root = checkout_root()
    if root is None:
        return _.gettext(
            "{option} needs the {extra} extra ({missing} is not installed): run pip install "
            "'{distribution}[{extra}]'",
            option=what,
            extra=extra,
            missing=missing,
            distribution=DISTRIBUTION,
        )
    if _has_project(root):
        return _.gettext(
            "{option} needs the {extra} extra ({missing} is not installed): in {root}, the "
            "checkout this runs from, run {pip} install -e '.[{extra}]'",
            option=what,
            extra=extra,
            missing=missing,
            root=root,
            pip=_pip(root),
        )
    make = "" if (root / VENV / "bin" / "python").exists() else f"python3 -m venv {VENV} && "
    return _.gettext(
        "{option} needs the {extra} extra, and this Python ({python}) does not have {distribution}: "
        "in {root}, the checkout this runs from, run {make}{venv}/bin/pip install -e '.[{extra}]', "
        "then run it with {venv}/bin/python",
        option=what,
        extra=extra,
        python=sys.executable,
        distribution=DISTRIBUTION,
        root=root,
        make=make,
        venv=VENV,
    )


@contextmanager
def needs_extra(program: str, extra: str) -> Iterator[None]:
    """Around a program's imports: one that fails ends it with one line on stderr, saying
    `program` needs `extra` and how to install it here, and exit status 2."""
    try:
        yield
    except ImportError as error:
        print(missing_extra(program, extra, error), file=sys.stderr, flush=True)
        raise SystemExit(USAGE_ERROR) from None


def checkout_root() -> Path | None:
    """This project's source tree, when the packages run from one (an editable install, or the
    tree on the path); None for an installed package."""
    root = Path(__file__).resolve().parent.parent
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    return root if f'name = "{DISTRIBUTION}"' in text else None


def _has_project(root: Path) -> bool:
    """Whether the Python that runs this has the project installed (in a checkout: editable), as
    its own paths say: the checkout's folder holds the project's metadata too (the build leaves it
    there), but a Python that merely finds the folder on its path has none of what it needs."""
    paths = [entry for entry in sys.path if Path(entry or ".").resolve() != root]
    return any(True for _found in importlib.metadata.distributions(name=DISTRIBUTION, path=paths))


def _pip(root: Path) -> str:
    """The pip of this Python, as typed in `root`: `.venv/bin/pip` for the checkout's own."""
    python = Path(sys.executable)
    pip = python.with_name("pip")
    command = pip if pip.is_file() else python
    if command.is_relative_to(root):
        command = command.relative_to(root)
    return str(command) if command.name == "pip" else f"{command} -m pip"

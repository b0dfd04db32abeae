"""Where the browser tests save the documentation's screenshots.

Every run takes them (so a page that no longer renders fails the test), but only
`UPDATE_SCREENSHOTS=1 make e2e` (or `make screenshots`) writes them into docs/: a plain test run must
leave the checkout clean, and the pictures change on every run (a countdown, a timestamp). Elsewhere
they go to a folder of this process's own: test processes running at once (pytest-xdist, or two
checkouts) never write the same file.
"""

import atexit
import functools
import os
import shutil
import tempfile
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def screenshot_path(name: str) -> Path:
    folder = DOCS if os.environ.get("UPDATE_SCREENSHOTS") == "1" else _scratch()
    folder.mkdir(exist_ok=True)
    return folder / name


@functools.cache
def _scratch() -> Path:
    folder = tempfile.mkdtemp(prefix="agent-choices-screenshots-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # the run leaves nothing behind
    return Path(folder)

"""Where `choices-chat` keeps its conversations, so they outlive a restart of the app.

NiceGUI keeps `app.storage.user` in files named after the browser's session id, and the session
cookie is signed with `storage_secret`. Both live in one directory: `$NICEGUI_STORAGE_PATH` when set
(NiceGUI's own variable), else `$AGENT_CHOICES_HOME/chat`, else the user data directory
(platformdirs). The secret is made once, kept there, and reused by every later run, so a browser's
cookie still finds its conversation after a restart.

Everything there is its owner's alone: the directory (and the data directory above it, which the
MCP server shares) mode 700, the conversations and the secret mode 600.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
from pathlib import Path

from present_choices._private_files import (
    describe_tightened,
    private_directory,
    tighten,
    write_private,
    written_as,
)
from present_choices._translation import terminal_translation

STORAGE_VARIABLE = "NICEGUI_STORAGE_PATH"
HOME_VARIABLE = "AGENT_CHOICES_HOME"
APPLICATION_NAME = "agent-choices"
SECRET_FILE_NAME = "cookie-secret"
SECRET_BYTES = 32
SHORTEST_SECRET = 32  # characters: anything shorter was not written by us, or was cut off


def storage_dir() -> Path:
    """The directory for the conversations and the cookie secret (not created here)."""
    configured = os.environ.get(STORAGE_VARIABLE)
    if configured:
        return Path(configured).expanduser()
    home = os.environ.get(HOME_VARIABLE)
    if home:
        return Path(home).expanduser() / "chat"
    import platformdirs

    return Path(platformdirs.user_data_dir(APPLICATION_NAME, appauthor=False)) / "chat"


def private_storage() -> Path:
    """`storage_dir()`, private: created with mode 700 when missing (with the data directory above
    it), its files and itself tightened when an earlier version left them open to others, saying
    so once on stderr. A directory that cannot be made is for `storage_secret` to report."""
    directory = storage_dir()
    # NiceGUI's files: a dictionary per browser (`storage-user-<id>.json`) and its temporary copy.
    files = [*written_as(SECRET_FILE_NAME), "storage-*.json", "storage-*.json.tmp"]
    places = [(directory, files)]
    if not os.environ.get(STORAGE_VARIABLE):  # the data directory above is the toolkit's too
        places.insert(0, (directory.parent, []))
    changed = tighten(places)
    if changed:
        print(
            f"choices-chat: {describe_tightened(changed, terminal_translation())}",
            file=sys.stderr,
            flush=True,
        )
    with contextlib.suppress(OSError):  # `storage_secret` says what is wrong with it
        private_directory(directory)
    return directory


def storage_secret(directory: Path) -> str:
    """The secret kept in `directory`, made and saved on first use.

    When it cannot be read or saved, the app still starts: with a secret for this run only, and one
    warning on stderr saying that conversations will not outlive the run.
    """
    path = directory / SECRET_FILE_NAME
    try:
        kept = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        kept = ""
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        return _secret_for_this_run(
            terminal_translation().gettext(
                "warning: cannot read the cookie secret {file} ({reason}); conversations last until this "
                "run stops",
                file=path,
                reason=reason,
            )
        )
    if len(kept) >= SHORTEST_SECRET:
        return kept
    secret = secrets.token_urlsafe(SECRET_BYTES)
    try:
        write_private(path, secret + "\n")
    except OSError as error:
        return _secret_for_this_run(
            terminal_translation().gettext(
                "warning: cannot save the cookie secret {file} ({reason}); conversations last until this "
                "run stops",
                file=path,
                reason=error.strerror or error,
            )
        )
    return secret


def _secret_for_this_run(warning: str) -> str:
    """A secret for this run only, having said why in one warning."""
    print(f"choices-chat: {warning}", file=sys.stderr)
    return secrets.token_urlsafe(SECRET_BYTES)

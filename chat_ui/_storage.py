"""Where `choices-chat` keeps its conversations, so they outlive a restart of the app.

NiceGUI keeps `app.storage.user` in files named after the browser's session id, and the session
cookie is signed with `storage_secret`. Both live in one directory: `$NICEGUI_STORAGE_PATH` when set
(NiceGUI's own variable), else `$AGENT_CHOICES_HOME/chat`, else the user data directory
(platformdirs). The secret is made once, kept there (mode 0600), and reused by every later run, so a
browser's cookie still finds its conversation after a restart.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
from pathlib import Path

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
        reason = getattr(error, "strerror", None) or "it is not text"
        return _secret_for_this_run(path, f"cannot read it: {reason}")
    if len(kept) >= SHORTEST_SECRET:
        return kept
    secret = secrets.token_urlsafe(SECRET_BYTES)
    temporary = path.with_name(f".{SECRET_FILE_NAME}.{os.getpid()}.tmp")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            file.write(secret + "\n")
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        return _secret_for_this_run(path, f"cannot save it: {error.strerror or error}")
    return secret


def _secret_for_this_run(path: Path, problem: str) -> str:
    print(
        f"choices-chat: warning: cookie secret {path}: {problem}; "
        "conversations last until this run stops",
        file=sys.stderr,
    )
    return secrets.token_urlsafe(SECRET_BYTES)

"""The question as `choice-terminal` reaches it over the bridge: claimed, shown with the same flow as
the in-process terminal, and what the person did posted back (the server says what it means).

`HandoffFailed` is every reason it stops, as the one line `choice-terminal` prints.

It speaks to the bridge with the standard library's `urllib` (a few JSON posts): httpx loaded six
times the modules, and its certificates, for about a fifth of the command's start. The proxies are
the environment's (`https_proxy`, `no_proxy`), an `https://` bridge's certificate is checked against
the system's certificates (`SSL_CERT_FILE` names others), and a redirect is not followed: like every
answer but success, it is a refusal that says its status.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import suppress
from functools import cache
from http.client import HTTPException
from typing import IO, TYPE_CHECKING, Any

from pydantic import ValidationError

from present_choices import ChoicesError
from present_choices._translation import N_, Translation
from provide_choice._contract._batch import Asked, BatchRequest, is_batch
from provide_choice._contract._batch_meaning import BatchSubmission
from provide_choice._contract._meaning import Submission
from provide_choice._contract._outcomes import Cancelled, TimedOut
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._contract._setting_changes import apply_changes
from provide_choice._contract._settings import InteractionSettings
from provide_choice._settings_file import terminal_words
from provide_choice._test_clock import follow
from provide_choice._transports._terminal_handoff._command import ROUTE_PREFIX

if TYPE_CHECKING:
    from email.message import Message

REQUEST_TIMEOUT_SECONDS = 10.0
SERVER_GONE = N_(
    "nothing answers at this address any more: the question has ended (answered or timed out) "
    "or the agent's provide-choice server stopped; ask the agent to call provide_choice again"
)
NO_TERMINAL = N_(
    "needs an interactive terminal, and this is not one (stdin and stdout must both be a "
    "terminal); run the command in a terminal window (agents: your run-in-terminal tool)"
)
UNREADABLE = N_(
    "the server sent a session this choice-terminal cannot read (a different version?); "
    "ask the agent to call provide_choice again"
)
CANNOT_TALK = N_(
    "cannot talk to the agent's provide-choice server at {url} ({error}); "
    "ask the agent to call provide_choice again"
)
HTTP_STATUS = N_("the server answered HTTP {status}; ask the agent to call provide_choice again")


UNPROCESSABLE = 422
"""The bridge's status for a change it checked and refused."""


class HandoffFailed(Exception):
    """Why the question could not be answered here, as the one line to print: a message of the
    catalog and its values, said in the person's language when printed (`said`)."""

    def __init__(self, message: str, **values: object) -> None:
        super().__init__(message.format(**values))
        self.message = message
        self.values = values

    def said(self, translation: Translation) -> str:
        return translation.gettext(self.message, **self.values)


class SessionRefused(HandoffFailed):
    """The bridge refused a request (404, 409, 410, 422); its reasons are the message, as the
    server wrote them."""

    def __init__(self, status: int, problems: list[str]) -> None:
        super().__init__("{problems}", problems="; ".join(problems))
        self.status = status
        self.problems = problems


def answer(session_id: str, url: str) -> int:
    """Claim the session, ask, post the outcome. The flow itself prints the summary line."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise HandoffFailed(NO_TERMINAL)
    # Imported here: a refusal above needs none of the terminal UI.
    from provide_choice._transports._terminal_view._alert_sequence import (
        say_when_tmux_drops_alerts,
    )
    from provide_choice._transports._terminal_view._batch_flow import run_batch_flow
    from provide_choice._transports._terminal_view._flow import (
        run_terminal_flow,
        signals_cancel,
        terminal_session,
    )

    session_url = f"{_base_url(url, session_id)}{ROUTE_PREFIX}/{session_id}"
    question = RemoteQuestion(session_url)
    asked = question.attach()
    say_when_tmux_drops_alerts(question.settings.alerts.on("terminal"), terminal_words())

    async def ask() -> Submission | BatchSubmission | Cancelled | TimedOut:
        with terminal_session(sys.stdout), signals_cancel():
            if isinstance(asked, BatchRequest):
                return await run_batch_flow(asked, question, question.keep)
            return await run_terminal_flow(asked, question)

    reported = asyncio.run(ask())
    try:
        _post(f"{session_url}/result", reported.model_dump(mode="json"))
    except SessionRefused as refusal:
        # At the deadline the server times the session out itself, an instant before this
        # terminal notices; the summary line on screen already says what the agent gets.
        if not (isinstance(reported, TimedOut) and refusal.status in (409, 410)):
            raise
    return 0


class RemoteQuestion:
    """The server's open question as this terminal reaches it over the bridge (a `LiveQuestion`):
    its settings and deadline as the server last said them, and changes sent to the server's
    `apply_settings`, which answers with what is in force."""

    def __init__(self, session_url: str) -> None:
        self.session_url = session_url
        self.settings = InteractionSettings()
        self.touched = False
        self._deadline = time.monotonic()

    def attach(self) -> Asked:
        """Claim the session: the question's request (or the batch), with its settings and time
        left."""
        session = _post(f"{self.session_url}/attach", {})
        asked = _readable(session, "request")
        model = (
            BatchRequest if isinstance(asked, dict) and is_batch(asked) else ProvideChoiceRequest
        )
        try:
            request: Asked = model.model_validate(asked)
        except ValidationError:
            raise _unreadable() from None
        self._follow(session)
        follow(self._skip)  # from the deadline the server just said, a test's clock (`_test_clock`)
        return request

    async def keep(self, question_id: str, submission: Submission) -> None:
        """Tell the server the person answered this question of the batch so (it keeps the
        answer if the batch ends half-way)."""
        body = {"question_id": question_id, "submission": submission.model_dump(mode="json")}
        # The server went away: posting the answer says what happened.
        with suppress(HandoffFailed):
            await asyncio.to_thread(_post, f"{self.session_url}/keep", body)

    def seconds_left(self) -> float:
        return max(self._deadline - time.monotonic(), 0.0)

    def _skip(self, seconds: float) -> None:
        """The test's clock moved `seconds` forward, the server's copy of it too: so does this one."""
        self._deadline -= seconds

    def touch(self) -> None:
        """The person's first key: the server hears it once (the alerts it would send are no
        longer needed), from a thread, so no key waits for it."""
        if self.touched:
            return
        self.touched = True
        threading.Thread(
            target=self._tell_touched, name="choice-terminal-touch", daemon=True
        ).start()

    def _tell_touched(self) -> None:
        with suppress(HandoffFailed):  # the server went away: posting the answer says so
            _post(f"{self.session_url}/touch", {})

    async def apply_settings(self, changes: object) -> InteractionSettings:
        url = f"{self.session_url}/settings"
        try:
            self._follow(await asyncio.to_thread(_post, url, changes))
        except SessionRefused as refused:
            if refused.status == UNPROCESSABLE:  # the server's check: what it refuses, this does
                raise ChoicesError(refused.problems) from None
            self._hold_here(changes)
        except HandoffFailed:
            self._hold_here(changes)
        return self.settings

    def _hold_here(self, changes: object) -> None:
        """The server went away: the change holds on this screen once it passes the check the
        server's `apply_settings` makes (`ChoicesError` saying what is allowed), and posting the
        answer says what happened."""
        self.settings, _changed = apply_changes(self.settings, changes)

    def _follow(self, session: object) -> None:
        """The settings in force and the time left, as the server just said them."""
        try:
            settings = InteractionSettings.model_validate(_readable(session, "settings"))
        except ValidationError:
            raise _unreadable() from None
        seconds_left = _readable(session, "seconds_left")
        if not isinstance(seconds_left, int | float) or isinstance(seconds_left, bool):
            raise _unreadable()
        self.settings = settings
        self._deadline = time.monotonic() + float(seconds_left)


def _readable(session: object, key: str) -> object:
    if not isinstance(session, dict) or key not in session:
        raise _unreadable()
    return session[key]


def _unreadable() -> HandoffFailed:
    return HandoffFailed(UNREADABLE)


def _base_url(url: str, session_id: str) -> str:
    """The bridge address; the session's own URL (`selection.url`) is accepted too."""
    url = url.rstrip("/")
    session_path = f"{ROUTE_PREFIX}/{session_id}"
    return url.removesuffix(session_path)


def _post(url: str, body: object) -> Any:
    """The bridge's JSON answer to `body` posted to `url`; `SessionRefused` with its reasons for any
    other status, `HandoffFailed` when nothing answers or the answer cannot be read."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
        method="POST",
    )
    try:
        with _opener().open(request, timeout=REQUEST_TIMEOUT_SECONDS) as response:
            answer = response.read()
    except urllib.error.HTTPError as refused:
        with refused:
            try:
                said = refused.read()
            except (OSError, HTTPException):  # cut short: its status says enough
                said = b""
        raise SessionRefused(refused.code, _reasons(refused.code, said)) from None
    except urllib.error.URLError as error:  # no connection
        if isinstance(error.reason, ConnectionRefusedError):  # nothing listens there any more
            raise HandoffFailed(SERVER_GONE) from None
        # A name that does not resolve, a certificate that does not check, a timeout.
        raise HandoffFailed(CANNOT_TALK, url=url, error=error.reason) from None
    except (OSError, HTTPException) as error:  # connected, and the answer did not come whole
        raise HandoffFailed(
            CANNOT_TALK, url=url, error=str(error) or type(error).__name__
        ) from None
    try:
        return json.loads(answer)
    except ValueError:
        raise _unreadable() from None


class _RedirectsRefused(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer like any other but success: the bridge never sends one."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: Message,
        newurl: str,
    ) -> None:
        return None


@cache
def _opener() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(_RedirectsRefused)


def _reasons(status: int, body: bytes) -> list[str]:
    """The bridge's reasons (`{"problems": [...]}`, the shape of every refusal)."""
    try:
        problems = json.loads(body)["problems"]
    except (ValueError, KeyError, TypeError):
        problems = None
    if not isinstance(problems, list) or not problems:
        return [HTTP_STATUS.format(status=status)]
    return [str(problem) for problem in problems]

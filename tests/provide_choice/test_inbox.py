"""The inbox without a browser: what it reads from the history, its page and headers under the
bridge's rules, its token, and the link file that lets every question's page link back to it."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import pytest
from callers import PlainCaller

from present_choices._translation import ENGLISH, translation
from provide_choice import (
    Answered,
    InteractionSettings,
    PendingQuestion,
    QuestionRegistry,
    parse_request,
)
from provide_choice._bridge._bridge import Bridge
from provide_choice._commands._command_line import INBOX_PORT
from provide_choice._history._inbox._server import DEFAULT_PORT, create_app, serve_inbox
from provide_choice._history._inbox._state import InboxState, settings_rows
from provide_choice._history._inbox._token import REFUSED, cookie_name, new_token
from provide_choice._history._inbox_link import (
    InboxLink,
    announce,
    link_path,
    opener_path,
    running_inbox,
    withdraw,
)
from provide_choice._history._process import this_process
from provide_choice._history._recorder import HistoryRecorder
from provide_choice._history._store import open_history
from provide_choice._question import AgentClient, Interaction
from provide_choice._transports._base import TransportSetup
from provide_choice._transports._question_view._state import QuestionPage
from provide_choice._transports._registry import build_transports

PORT = 8766
BASE = f"http://127.0.0.1:{PORT}"
HOSTILE_TITLE = "</script><script>alert(1)</script>"
ALERTS_ON = {"browser": True, "after_seconds": 0}
"""What the inbox page's alerts follow of the default settings."""
SECRET_TITLE = "Secret deploy target"
TOKEN = new_token()
ADDRESS = f"{BASE}/?token={TOKEN}"


def question_request(title: str) -> dict[str, object]:
    return {
        "title": title,
        "prompt": "Which one?",
        "selection_mode": "single",
        "options": [
            {"id": "a", "label": "A", "recommended": True},
            {"id": "b", "label": "B"},
        ],
    }


@pytest.fixture
async def registry(home: Path) -> AsyncIterator[QuestionRegistry]:
    recorder = HistoryRecorder(home / "history.sqlite3", settings=InteractionSettings).start()
    yield QuestionRegistry(recorder=recorder)
    recorder.close()


def ask(registry: QuestionRegistry, title: str, transport: str = "web") -> PendingQuestion:
    interaction = Interaction.start(
        parse_request(question_request(title)),
        InteractionSettings(),
        client=AgentClient("editor", "3"),
    )
    question = registry.create(interaction, transport)  # type: ignore[arg-type]
    if transport == "web":
        question.show_at(f"http://127.0.0.1:40000/choice/{question.id}")
    return question


def flushed(registry: QuestionRegistry) -> None:
    assert isinstance(registry.recorder, HistoryRecorder)
    assert registry.recorder.flush(5)


def sha256_source(text: str) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


async def test_waiting_questions_link_to_their_page_and_ended_ones_say_how(
    home: Path, registry: QuestionRegistry
) -> None:
    web = ask(registry, "In the browser")
    ask(registry, "In its terminal", "terminal")
    ended = ask(registry, "Answered already")
    ended.finish(Answered(selected_ids=["b"]))
    flushed(registry)
    state = InboxState(home / "history.sqlite3").snapshot(ENGLISH)
    assert state["problem"] is None
    first, second = state["waiting"]
    assert (first["title"], first["client"], first["url"], first["where"]) == (
        "In the browser",
        "editor 3",
        web.url,
        None,
    )
    assert 295 < first["seconds_left"] <= 300
    assert (second["title"], second["url"], second["where"]) == (
        "In its terminal",
        None,
        "Shown in its server's terminal",
    )
    (done,) = state["recent"]
    assert (done["title"], done["action_status"], done["summary"]) == (
        "Answered already",
        "selected",
        "Selected: B.",
    )
    assert "url" not in done  # an ended question's address leads nowhere


def test_no_history_yet_is_an_empty_inbox_and_a_corrupt_one_a_problem_it_recovers_from(
    home: Path,
) -> None:
    path = home / "history.sqlite3"
    state = InboxState(path)
    nothing = {
        "language": "en",
        "waiting": [],
        "recent": [],
        "problem": None,
        "alerts": ALERTS_ON,
        "away_until": None,
    }
    assert state.snapshot(ENGLISH) == nothing
    assert not path.exists()
    path.write_bytes(b"garbage" * 1000)
    problem = state.snapshot(ENGLISH)["problem"]
    assert problem.startswith(f"the history {path} cannot be used (file is not a database)")
    path.unlink()
    open_history(path).close()
    assert state.snapshot(ENGLISH) == nothing


def test_until_when_the_person_is_away_is_written_as_their_language_writes_a_time() -> None:
    until = (datetime.now() + timedelta(days=2)).replace(hour=15, minute=4)
    away = InteractionSettings(away_until=until.isoformat("T", "minutes"))
    assert settings_rows(away, ENGLISH)["away_until"] == f"{until:%b} {until.day}, 3:04\u202fPM"
    chinese = settings_rows(away, translation("zh_Hans"))["away_until"]
    assert chinese == f"{until.month}月{until.day}日 15:04"
    back = InteractionSettings(away_until="2020-01-01T10:00")
    assert settings_rows(back, ENGLISH)["away_until"] is None


@pytest.fixture
async def served(home: Path) -> AsyncIterator[Callable[..., httpx.AsyncClient]]:
    """Clients of one inbox app (its token is `TOKEN`), each with the cookies it is given."""
    state = InboxState(home / "history.sqlite3")
    transport = httpx.ASGITransport(app=create_app(state, lambda: PORT, TOKEN))

    def client(**cookies: str) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=transport, base_url=BASE, cookies=cookies)

    yield client
    state.close_connection()


@pytest.fixture
async def inbox(
    served: Callable[..., httpx.AsyncClient],
) -> AsyncIterator[httpx.AsyncClient]:
    """A client that has the inbox's cookie, as a browser has after its first visit."""
    async with served(**{cookie_name(PORT): TOKEN}) as client:
        yield client


async def test_the_page_allows_only_its_own_inline_script_and_style_and_keeps_text_as_data(
    inbox: httpx.AsyncClient, registry: QuestionRegistry
) -> None:
    ask(registry, HOSTILE_TITLE)
    flushed(registry)
    page = await inbox.get("/")
    assert page.status_code == 200
    policy = page.headers["content-security-policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    scripts = re.findall(r"<script>(.*?)</script>", page.text, flags=re.DOTALL)
    styles = re.findall(r"<style>(.*?)</style>", page.text, flags=re.DOTALL)
    assert len(scripts) == len(styles) == 1
    assert directives["script-src"] == sha256_source(scripts[0])
    assert directives["style-src"] == sha256_source(styles[0])
    assert directives["default-src"] == "'self'"
    assert "http" not in policy
    assert "unsafe" not in policy
    assert page.headers["referrer-policy"] == "no-referrer"
    # The title reaches the page only inside its JSON state, unable to end that script block.
    assert HOSTILE_TITLE not in page.text
    state = re.search(r'id="inbox-state">(.*?)</script>', page.text, flags=re.DOTALL)
    assert state is not None
    assert json.loads(state.group(1))["waiting"][0]["title"] == HOSTILE_TITLE
    assert '<section class="inbox-section" aria-labelledby="waiting-heading">' in page.text
    assert '<h2 id="waiting-heading" tabindex="-1" data-words="waiting">Waiting</h2>' in page.text
    assert '<h2 id="recent-heading" data-words="recent">Recent</h2>' in page.text
    polled = await inbox.get("/state")
    assert polled.json()["state"]["waiting"][0]["title"] == HOSTILE_TITLE
    assert polled.headers["content-security-policy"] == policy
    icon = await inbox.get("/icon.svg")
    assert icon.headers["content-type"].startswith("image/svg+xml")


@pytest.mark.parametrize(
    ("method", "path", "headers", "status", "problem"),
    [
        ("GET", "/state", {"Host": "evil.example:8766"}, 403, "the Host header must be this inbox's own address"),
        ("GET", "/", {"Host": f"127.0.0.1:{PORT + 1}"}, 403, "the Host header must be this inbox's own address"),
        ("POST", "/state", {"Origin": "http://evil.example"}, 403, "requests from other origins are refused"),
        ("POST", "/state", {"Content-Type": "text/plain"}, 415, "the body must be JSON"),
    ],
)  # fmt: skip
async def test_foreign_hosts_and_cross_site_requests_are_refused(
    inbox: httpx.AsyncClient,
    method: str,
    path: str,
    headers: dict[str, str],
    status: int,
    problem: str,
) -> None:
    response = await inbox.request(method, path, headers=headers, content=b"x")
    assert response.status_code == status
    assert problem in response.json()["problems"][0]


ROUTES = ["/", "/state", "/icon.svg", "/no-such-route"]


@pytest.mark.parametrize("path", ROUTES)
@pytest.mark.parametrize(
    ("query", "cookies"),
    [
        pytest.param("", {}, id="no token"),
        pytest.param(f"?token={new_token()}", {}, id="a wrong token of the same length"),
        pytest.param("?token=", {}, id="an empty token"),
        pytest.param(f"?token={TOKEN[:-1]}", {}, id="the token less its last character"),
        pytest.param("?token=%C3%A9" + TOKEN[1:], {}, id="a token that is not ASCII"),
        pytest.param("", {cookie_name(PORT): new_token()}, id="a wrong cookie"),
        pytest.param("", {cookie_name(PORT + 1): TOKEN}, id="another port's cookie"),
        pytest.param(f"?TOKEN={TOKEN}", {}, id="the token under another name"),
    ],
)
async def test_every_route_refuses_a_request_without_the_token(
    served: Callable[..., httpx.AsyncClient],
    registry: QuestionRegistry,
    path: str,
    query: str,
    cookies: dict[str, str],
) -> None:
    question = ask(registry, SECRET_TITLE)
    flushed(registry)
    async with served(**cookies) as client:
        response = await client.get(path + query)
    assert response.status_code == 403
    assert response.json() == {"problems": [REFUSED]}
    assert "run `provide-choice inbox` again to get the address" in REFUSED
    assert SECRET_TITLE not in response.text
    assert question.id not in response.text
    assert "set-cookie" not in response.headers


async def test_a_state_changing_request_without_the_token_is_refused_too(
    served: Callable[..., httpx.AsyncClient],
) -> None:
    async with served() as client:
        response = await client.post("/state", json={})
    assert (response.status_code, response.json()) == (403, {"problems": [REFUSED]})


async def test_the_token_opens_the_page_once_and_its_cookie_every_route_after(
    served: Callable[..., httpx.AsyncClient], registry: QuestionRegistry
) -> None:
    question = ask(registry, SECRET_TITLE)
    flushed(registry)
    async with served() as client:
        first = await client.get(f"/?token={TOKEN}")
    assert first.status_code == 200
    assert SECRET_TITLE in first.text
    assert first.headers["set-cookie"] == (
        f"{cookie_name(PORT)}={TOKEN}; HttpOnly; SameSite=Strict; Path=/"
    )
    async with served(**{cookie_name(PORT): TOKEN}) as browser:
        for path in ("/", "/state", "/icon.svg"):
            response = await browser.get(path)
            assert response.status_code == 200, path
            assert "set-cookie" not in response.headers  # the token was not in the address
        state = (await browser.get("/state")).json()["state"]
    assert state["waiting"][0]["url"] == question.url


def test_the_link_file_names_a_running_inbox_only(home: Path) -> None:
    assert running_inbox() is None
    announce(BASE, TOKEN)
    assert running_inbox() == ADDRESS
    assert json.loads(link_path().read_text())["pid"] == this_process().pid
    withdraw()
    assert not link_path().exists()


def test_the_link_file_holding_the_token_is_readable_by_its_owner_alone(home: Path) -> None:
    link_path().write_text("{}")  # an older file, readable by all, is replaced by a private one
    os.chmod(link_path(), 0o644)
    previous = os.umask(0)  # whatever the umask says
    try:
        announce(BASE, TOKEN)
    finally:
        os.umask(previous)
    assert stat.S_IMODE(link_path().stat().st_mode) == 0o600
    assert json.loads(link_path().read_text())["token"] == TOKEN
    withdraw()


def write_record(record: dict[str, object], mode: int = 0o600) -> None:
    link_path().write_text(json.dumps(record))
    os.chmod(link_path(), mode)


def test_a_link_file_others_could_read_or_write_is_no_link(home: Path) -> None:
    process = this_process()
    write_record({"url": BASE, "token": TOKEN, "pid": process.pid, "start": process.start}, 0o644)
    assert running_inbox() is None
    os.chmod(link_path(), 0o600)
    assert running_inbox() == ADDRESS


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(lambda: {"pid": dead_pid()}, id="dead"),
        pytest.param(lambda: {"url": "https://evil.example/"}, id="another address"),
        pytest.param(lambda: {"url": "http://127.0.0.1:8766/../x"}, id="a path"),
        pytest.param(lambda: {"url": None}, id="no address"),
        pytest.param(lambda: {"token": None}, id="no token"),
        pytest.param(lambda: {"token": TOKEN[:-1] + "&"}, id="a token that is not one"),
        pytest.param(lambda: {"token": TOKEN + "x"}, id="a token too long"),
    ],
)
def test_a_stale_or_foreign_link_file_is_no_link(
    home: Path, content: Callable[[], dict[str, object]]
) -> None:
    process = this_process()
    record = {"url": BASE, "token": TOKEN, "pid": process.pid, "start": process.start}
    write_record(record | content())
    assert running_inbox() is None


def test_a_link_file_that_is_not_json_is_no_link(home: Path) -> None:
    link_path().write_text("{not json")
    os.chmod(link_path(), 0o600)
    assert running_inbox() is None


def test_an_inbox_leaves_another_inboxs_link_file_alone(home: Path) -> None:
    write_record({"url": BASE, "token": TOKEN, "pid": dead_pid(), "start": None})
    withdraw()
    assert link_path().exists()


async def test_a_question_page_links_back_to_the_inbox_while_it_runs(
    home: Path, registry: QuestionRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("provide_choice._history._inbox_link.CHECK_SECONDS", 0.0)
    page = QuestionPage(ask(registry, "Deploy"))
    assert page.state()["inbox_url"] is None
    announce(BASE, TOKEN)
    assert page.state()["inbox_url"] == ADDRESS  # with the token: the page is the person's own
    withdraw()
    assert page.state()["inbox_url"] is None


async def test_only_a_question_pages_own_routes_carry_the_inbox_token(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("provide_choice._history._inbox_link.CHECK_SECONDS", 0.0)
    announce(BASE, TOKEN)
    bridge, questions = Bridge(), QuestionRegistry()
    web = build_transports(TransportSetup(questions, bridge=bridge, open_browser=False))["web"]
    interaction = Interaction.start(
        parse_request(question_request("Deploy")), InteractionSettings()
    )
    question = questions.create(interaction, "web")
    await web.show(question, PlainCaller())
    assert question.url is not None
    origin = question.url.split("/choice/")[0]
    try:
        async with httpx.AsyncClient(base_url=origin) as client:
            assert TOKEN in (await client.get(question.url)).text
            assert TOKEN in (await client.get(question.url + "/state")).text
            for path in (
                "/",
                "/choice",
                "/choice/",
                "/choice/assets/icon.svg",
                f"/choice/{new_token()}",
                f"/choice/{new_token()}/state",
                f"/terminal/{question.id}",
                "/docs",
                "/openapi.json",
            ):
                response = await client.get(path)
                assert response.status_code in (200, 404), path
                assert TOKEN not in response.text, path
                assert question.id not in response.text, path
    finally:
        question.finish(Answered(selected_ids=["a"]))
        await bridge.aclose()
        withdraw()


def test_the_link_is_looked_up_at_most_once_a_second(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    link = InboxLink()
    assert link.url() is None
    announce(BASE, TOKEN)
    assert link.url() is None  # checked a moment ago
    monkeypatch.setattr(time, "monotonic", lambda: float("inf"))
    assert link.url() == ADDRESS
    withdraw()


def test_a_second_inbox_opens_the_running_one_instead(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    announce(BASE, TOKEN)
    serve_inbox(0, open_browser=False)  # returns at once: nothing else is served
    assert capsys.readouterr().err == (
        f"provide-choice inbox: the inbox already runs at {ADDRESS}\n"
    )
    withdraw()


def test_the_browser_is_opened_through_a_private_page_not_with_the_token_on_its_command_line(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    monkeypatch.setattr("provide_choice._history._inbox._server.open_in_browser", opened.append)
    announce(BASE, TOKEN)
    serve_inbox(0, open_browser=True)  # the running one is opened
    assert opened == [opener_path().as_uri()]
    assert TOKEN not in opened[0]
    assert stat.S_IMODE(opener_path().stat().st_mode) == 0o600
    assert f'<meta http-equiv="refresh" content="0;url={ADDRESS}">' in opener_path().read_text()
    withdraw()  # the inbox that stops removes its opener with its record
    assert not opener_path().exists()


PRINTED = re.compile(
    r"provide-choice inbox: inbox at (http://127\.0\.0\.1:\d+)/\?token=([A-Za-z0-9_-]{43}) "
    r"\(Ctrl-C stops it\)\n"
)


INBOX_COMMAND = [sys.executable, "-m", "provide_choice", "inbox"]


def start_inbox() -> tuple[subprocess.Popen[str], str]:
    """`provide-choice inbox --no-browser --port 0`, and the line it prints first."""
    process = subprocess.Popen(
        [*INBOX_COMMAND, "--no-browser", "--port", "0"], stderr=subprocess.PIPE, text=True
    )
    assert process.stderr is not None
    return process, process.stderr.readline()


def run_inbox_again() -> str:
    """What a second `provide-choice inbox` prints."""
    return subprocess.run(
        [*INBOX_COMMAND, "--no-browser"], capture_output=True, text=True, timeout=30, check=True
    ).stderr


def stop_inbox(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGINT)
    return process.communicate(timeout=15)[1]


async def test_another_process_needs_the_printed_address_and_a_second_inbox_prints_it_again(
    home: Path, registry: QuestionRegistry
) -> None:
    question = ask(registry, SECRET_TITLE)
    flushed(registry)
    inbox, line = start_inbox()
    try:
        printed = PRINTED.fullmatch(line)
        assert printed is not None, line
        url, token = printed.groups()
        address = f"{url}/?token={token}"
        assert stat.S_IMODE(link_path().stat().st_mode) == 0o600
        assert token in link_path().read_text()
        assert run_inbox_again() == f"provide-choice inbox: the inbox already runs at {address}\n"

        async with httpx.AsyncClient(base_url=url) as client:
            for path in ("/", "/state", "/icon.svg"):
                for query in ("", f"?token={new_token()}"):
                    refused = await client.get(path + query)
                    assert refused.status_code == 403, (path, query)
                    assert refused.json() == {"problems": [REFUSED]}
            assert not client.cookies
            page = await client.get(address)
            assert page.status_code == 200
            assert "HttpOnly; SameSite=Strict; Path=/" in page.headers["set-cookie"]
            state = (await client.get("/state")).json()["state"]  # with the cookie only
        assert [(item["title"], item["url"]) for item in state["waiting"]] == [
            (SECRET_TITLE, question.url)
        ]
    finally:
        errors = stop_inbox(inbox)
    assert "Traceback" not in errors
    assert not link_path().exists()  # the record, and the token with it, leave with the inbox


def test_the_commands_default_port_is_the_inboxs_own() -> None:
    # `provide-choice inbox --help` shows its default without loading FastAPI.
    assert INBOX_PORT == DEFAULT_PORT == 8766

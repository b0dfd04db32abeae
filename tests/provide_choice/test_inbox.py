"""The inbox without a browser: what it reads from the history, its page and headers under the
bridge's rules, and the link file that lets every question's page link back to it."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx
import pytest

from provide_choice import (
    Answered,
    InteractionSettings,
    PendingQuestion,
    QuestionRegistry,
    parse_request,
)
from provide_choice.__main__ import INBOX_PORT
from provide_choice._history._inbox._link import (
    InboxLink,
    announce,
    link_path,
    running_inbox,
    withdraw,
)
from provide_choice._history._inbox._server import DEFAULT_PORT, create_app, serve_inbox
from provide_choice._history._inbox._state import InboxState
from provide_choice._history._process import this_process
from provide_choice._history._recorder import HistoryRecorder
from provide_choice._history._store import open_history
from provide_choice._transports._base import AgentClient, Interaction
from provide_choice._transports._portal._page import QuestionPage

PORT = 8766
BASE = f"http://127.0.0.1:{PORT}"
HOSTILE_TITLE = "</script><script>alert(1)</script>"


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
    state = InboxState(home / "history.sqlite3").snapshot()
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
    assert state.snapshot() == {"waiting": [], "recent": [], "problem": None}
    assert not path.exists()
    path.write_bytes(b"garbage" * 1000)
    problem = state.snapshot()["problem"]
    assert problem.startswith(f"the history {path} cannot be used (file is not a database)")
    path.unlink()
    open_history(path).close()
    assert state.snapshot() == {"waiting": [], "recent": [], "problem": None}


@pytest.fixture
async def inbox(home: Path) -> AsyncIterator[httpx.AsyncClient]:
    state = InboxState(home / "history.sqlite3")
    app = create_app(state, lambda: PORT)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as client:
        yield client
    state.close_connection()


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
    assert '<h2 id="waiting-heading" tabindex="-1">Waiting</h2>' in page.text
    assert '<h2 id="recent-heading">Recent</h2>' in page.text
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


def test_the_link_file_names_a_running_inbox_only(home: Path) -> None:
    assert running_inbox() is None
    announce("http://127.0.0.1:8766")
    assert running_inbox() == "http://127.0.0.1:8766"
    assert json.loads(link_path().read_text())["pid"] == this_process().pid
    withdraw()
    assert not link_path().exists()


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(lambda: {"url": "http://127.0.0.1:8766", "pid": dead_pid()}, id="dead"),
        pytest.param(lambda: {"url": "https://evil.example/"}, id="another address"),
        pytest.param(lambda: {"url": "http://127.0.0.1:8766/../x"}, id="a path"),
        pytest.param(lambda: {"pid": this_process().pid}, id="no address"),
    ],
)
def test_a_stale_or_foreign_link_file_is_no_link(
    home: Path, content: Callable[[], dict[str, object]]
) -> None:
    process = this_process()
    link_path().write_text(json.dumps({"pid": process.pid, "start": process.start} | content()))
    assert running_inbox() is None


def test_a_link_file_that_is_not_json_is_no_link(home: Path) -> None:
    link_path().write_text("{not json")
    assert running_inbox() is None


def test_an_inbox_leaves_another_inboxs_link_file_alone(home: Path) -> None:
    link_path().write_text(json.dumps({"url": "http://127.0.0.1:8766", "pid": dead_pid()}))
    withdraw()
    assert link_path().exists()


async def test_a_question_page_links_back_to_the_inbox_while_it_runs(
    home: Path, registry: QuestionRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("provide_choice._history._inbox._link.CHECK_SECONDS", 0.0)
    page = QuestionPage(ask(registry, "Deploy"))
    assert page.state()["inbox_url"] is None
    announce("http://127.0.0.1:8766")
    assert page.state()["inbox_url"] == "http://127.0.0.1:8766"
    withdraw()
    assert page.state()["inbox_url"] is None


def test_the_link_is_looked_up_at_most_once_a_second(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    link = InboxLink()
    assert link.url() is None
    announce("http://127.0.0.1:8766")
    assert link.url() is None  # checked a moment ago
    monkeypatch.setattr(time, "monotonic", lambda: float("inf"))
    assert link.url() == "http://127.0.0.1:8766"
    withdraw()


def test_a_second_inbox_opens_the_running_one_instead(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    announce("http://127.0.0.1:8766")
    serve_inbox(0, open_browser=False)  # returns at once: nothing else is served
    assert capsys.readouterr().err == (
        "provide-choice inbox: the inbox already runs at http://127.0.0.1:8766\n"
    )
    withdraw()


def test_the_commands_default_port_is_the_inboxs_own() -> None:
    # `provide-choice inbox --help` shows its default without loading FastAPI.
    assert INBOX_PORT == DEFAULT_PORT == 8766

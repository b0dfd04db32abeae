"""Several questions in one call (`questions`): what a batch may hold, every problem of a broken one
listed at once with its question's id, and the response: `answers` in question order through the one
`normalize`, what a cancel or a timeout half-way keeps, and one batch as one session for the server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client
from mcp_types import TextContent

from present_choices import ChoicesError
from provide_choice import (
    Answered,
    BatchAnswered,
    BatchRequest,
    Cancelled,
    InteractionSettings,
    PendingQuestion,
    StillOpen,
    TimedOut,
    create_server,
    normalize,
    parse_call,
    parse_request,
    register_transport,
    save_settings,
)
from provide_choice._contract._batch_meaning import (
    BatchSubmission,
    batch_answer_from,
    kept_answer,
    read_batch_reported,
)
from provide_choice._contract._batch_response import normalize_batch, respond
from provide_choice._contract._meaning import Submission
from provide_choice._contract._transport_table import TransportKind
from provide_choice._question import Interaction, QuestionRegistry
from provide_choice._transports._base import Caller, TransportSetup

DATABASE = {
    "id": "db",
    "header": "Database",
    "prompt": "Which database should I set up?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True, "preview": "```sql\nCREATE;\n```"},
        {"id": "lite", "label": "SQLite"},
    ],
}
FEATURES = {
    "id": "features",
    "header": "Features",
    "prompt": "Which features go in the first release?",
    "selection_mode": "multi",
    "options": [
        {"id": "auth", "label": "Login", "recommended": True},
        {"id": "search", "label": "Search"},
        {"id": "export", "label": "Export"},
    ],
    "default_selection_ids": ["auth"],
}
NAME = {
    "id": "name",
    "prompt": "What should the service be called?",
    "selection_mode": "text_input",
    "placeholder": "orders",
}
BATCH: dict[str, Any] = {"title": "Project set-up", "questions": [DATABASE, FEATURES, NAME]}


def batch(**changes: Any) -> BatchRequest:
    parsed = parse_call(BATCH | changes)
    assert isinstance(parsed, BatchRequest)
    return parsed


def single_of(question: dict[str, Any]) -> dict[str, Any]:
    """A batch's question as a single request's fields (without its id and header)."""
    return {key: value for key, value in question.items() if key not in ("id", "header")}


def problems_of(arguments: dict[str, Any]) -> list[str]:
    with pytest.raises(ChoicesError) as raised:
        parse_call(arguments)
    return raised.value.problems


def test_a_batch_holds_its_questions_each_as_a_single_request_titled_by_the_batch() -> None:
    parsed = batch(timeout_seconds=90, transport="web")
    assert [item.id for item in parsed.questions] == ["db", "features", "name"]
    assert [item.header for item in parsed.questions] == ["Database", "Features", None]
    database = parsed.questions[0].request
    assert database == parse_request(single_of(DATABASE) | {"title": "Project set-up"})
    assert database.options is not None
    assert database.options[0].preview == "```sql\nCREATE;\n```"
    assert (parsed.timeout_seconds, parsed.transport) == (90, "web")


def test_a_single_question_request_is_parsed_as_before() -> None:
    single = single_of(DATABASE) | {"title": "Database"}
    assert parse_call(single) == parse_request(single)


def test_every_problem_of_every_question_is_listed_at_once_prefixed_by_its_id() -> None:
    broken_database = DATABASE | {"options": [{"id": "pg", "label": "PostgreSQL"}]}
    broken_features = FEATURES | {"header": "A header far longer than thirty characters"}
    broken_name = NAME | {"id": "a name!", "placeholder": ""}
    problems = problems_of(
        {"title": "Project set-up", "questions": [broken_database, broken_features, broken_name]}
    )
    assert "db: options must have at least 2 items for single, got 1" in problems
    assert "db: options must mark at least one option with recommended: true" in problems
    assert "features: header must be at most 30 characters (a short chip), got 42" in problems
    assert (
        "questions[2]: id must be 1 to 40 characters of letters, digits, _ and -, got 'a name!'"
        in problems
    )
    assert any(problem.startswith("questions[2]: placeholder") for problem in problems)
    assert len(problems) == 5


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        (
            BATCH | {"prompt": "Which?", "selection_mode": "single"},
            "questions cannot be combined with single-question fields (prompt, selection_mode): "
            "put them inside each question, or leave questions out to ask one question",
        ),
        (BATCH | {"questions": []}, "questions must have 1 to 6 items, got 0"),
        (
            BATCH | {"questions": [NAME | {"id": f"q{n}"} for n in range(7)]},
            "questions must have 1 to 6 items, got 7",
        ),
        (
            BATCH | {"questions": [NAME, NAME | {"placeholder": "billing"}]},
            "questions ids must be unique, repeated: 'name'",
        ),
        (
            BATCH | {"questions": [NAME | {"timeout_seconds": 30}]},
            "name: timeout_seconds belongs at the top of the request, not in a question",
        ),
        (
            BATCH | {"questions": [NAME | {"id": "x" * 41}]},
            f"questions[0]: id must be 1 to 40 characters of letters, digits, _ and -, got "
            f"'{'x' * 41}'",
        ),
        (BATCH | {"questions": "three"}, "questions must be a list of 1 to 6 questions, got str"),
        (
            {"questions": [NAME]},
            "title is required",
        ),
    ],
)
def test_a_broken_batch_says_what_is_allowed(arguments: dict[str, Any], problem: str) -> None:
    assert problem in problems_of(arguments)


def test_the_header_limit_is_30_characters() -> None:
    assert batch(questions=[NAME | {"header": "h" * 30}]).questions[0].header == "h" * 30
    assert problems_of(BATCH | {"questions": [NAME | {"header": "h" * 31}]}) == [
        "name: header must be at most 30 characters (a short chip), got 31"
    ]


def test_a_preview_is_markdown_of_at_most_4000_characters() -> None:
    long_preview = DATABASE | {
        "options": [DATABASE["options"][0] | {"preview": "x" * 4001}, DATABASE["options"][1]]
    }
    (problem,) = problems_of(BATCH | {"questions": [long_preview]})
    assert problem.startswith("db: options[0].preview")
    assert "4000" in problem


def test_an_answered_batch_has_answers_in_question_order_and_a_sentence_per_question() -> None:
    outcome = BatchAnswered(
        answers={
            "name": Answered(custom_input="orders", placeholder_used=True),
            "db": Answered(selected_ids=["lite"], option_annotations={"lite": "tiny app"}),
            "features": Answered(selected_ids=["export", "auth"]),
        },
        global_annotation="thanks",
    )
    response = normalize_batch(batch(), outcome, "web", url="http://127.0.0.1:1/choice/x")
    dumped = response.model_dump(mode="json")
    assert dumped["action_status"] == "selected"
    assert dumped["answers"] == [
        {
            "id": "db",
            "selected_ids": ["lite"],
            "custom_input": None,
            "option_annotations": {"lite": "tiny app"},
            "placeholder_used": False,
        },
        {
            "id": "features",
            "selected_ids": ["auth", "export"],
            "custom_input": None,
            "option_annotations": {},
            "placeholder_used": False,
        },
        {
            "id": "name",
            "selected_ids": [],
            "custom_input": "orders",
            "option_annotations": {},
            "placeholder_used": True,
        },
    ]
    assert dumped["selection"] | {"summary": ""} == {
        "selected_ids": [],
        "custom_input": None,
        "option_annotations": {},
        "global_annotation": "thanks",
        "placeholder_used": False,
        "transport": "web",
        "session_id": None,
        "url": "http://127.0.0.1:1/choice/x",
        "summary": "",
    }
    assert dumped["selection"]["summary"] == (
        "Answered 3 questions (with an overall note). "
        "Database: Selected: SQLite (with notes on SQLite). "
        "Features: Selected: Login, Export. "
        'name: Accepted the suggested answer: "orders".'
    )


def test_a_single_questions_response_has_no_answers_field() -> None:
    single = parse_request(single_of(NAME) | {"title": "Name"})
    dumped = normalize(single, Answered(custom_input="billing"), "web").model_dump(mode="json")
    assert "answers" not in dumped
    assert json.loads(normalize(single, Cancelled(), "web").model_dump_json()).keys() == {
        "action_status",
        "answered_by",
        "selection",
    }


@pytest.mark.parametrize(
    ("action", "features", "name"),
    [("return_defaults", ["auth"], None), ("return_nothing", [], None)],
)
def test_a_timeout_half_way_keeps_the_answers_and_the_rest_follow_the_timeout_action(
    action: Any, features: list[str], name: None
) -> None:
    outcome = TimedOut(action=action, kept={"db": Answered(selected_ids=["pg"])})
    dumped = normalize_batch(batch(), outcome, "web").model_dump(mode="json")
    assert dumped["action_status"] == "timeout"
    answers = {answer["id"]: answer for answer in dumped["answers"]}
    assert answers["db"]["selected_ids"] == ["pg"]
    assert answers["features"]["selected_ids"] == features
    assert answers["name"]["custom_input"] is name
    summary = dumped["selection"]["summary"]
    assert summary.startswith("The deadline passed after 1 of 3 questions. Database: Selected:")
    if action == "return_defaults":
        assert (
            "Features: Not answered; defaults returned, not chosen by the person: Login." in summary
        )
    else:
        assert "Features: Not answered; nothing selected." in summary


def test_a_cancel_half_way_keeps_the_answers_and_says_so() -> None:
    outcome = Cancelled(rest="return_defaults", kept={"name": Answered(custom_input="billing")})
    dumped = normalize_batch(batch(), outcome, "web").model_dump(mode="json")
    assert dumped["action_status"] == "cancelled"
    assert [answer["selected_ids"] for answer in dumped["answers"]] == [[], ["auth"], []]
    assert dumped["answers"][2]["custom_input"] == "billing"
    assert dumped["selection"]["summary"] == (
        "Cancelled by the person after 1 of 3 questions. "
        "Database: Not answered; no defaults to return, nothing selected. "
        "Features: Not answered; defaults returned, not chosen by the person: Login. "
        'name: Answered in their own words: "billing".'
    )


@pytest.mark.parametrize(
    ("outcome", "problem"),
    [
        (Answered(selected_ids=["pg"]), "a single answer cannot answer a batch"),
        (BatchAnswered(answers={"db": Answered(selected_ids=["pg"])}), "features: not answered"),
        (
            BatchAnswered(
                answers={
                    "db": Answered(selected_ids=["nope"]),
                    "features": Answered(selected_ids=["auth"]),
                    "name": Answered(custom_input="x"),
                }
            ),
            "db: selected_ids: 'nope' is not an option id",
        ),
        (
            Cancelled(kept={"other": Answered(selected_ids=["pg"])}),
            "other: is not a question of this batch",
        ),
    ],
)
def test_an_outcome_the_batch_forbids_is_refused(outcome: Any, problem: str) -> None:
    with pytest.raises(ChoicesError) as raised:
        normalize_batch(batch(), outcome, "web")
    assert any(problem in text for text in raised.value.problems)


def test_a_batch_answer_cannot_answer_a_single_question() -> None:
    single = batch().questions[0].request
    with pytest.raises(ChoicesError, match="answers of a batch cannot answer a single question"):
        normalize(single, BatchAnswered(answers={}), "web")


async def test_a_finished_batch_keeps_what_the_person_answered_and_the_timeout_action() -> None:
    registry = QuestionRegistry()
    settings = InteractionSettings(timeout_action="return_defaults")
    question = registry.create(Interaction.start(batch(), settings), "web")
    question.keep("db", Answered(selected_ids=["lite"]))
    question.keep("features", Answered(selected_ids=["search"]))
    question.keep("features", None)  # taken back
    question.finish(Cancelled())
    assert question.outcome == Cancelled(
        kept={"db": Answered(selected_ids=["lite"])}, rest="return_defaults"
    )
    answers = respond(question.interaction.asked, question.outcome, "web").answers
    assert answers is not None
    assert [answer.selected_ids for answer in answers] == [["lite"], ["auth"], []]


class CourierTransport:
    """Shows batches: answers every question of one with its recommended options (or the
    placeholder), after the test says so; polls see it pending meanwhile."""

    kind = TransportKind("courier", "A courier", preference="By courier", batches=True)
    cancelled_with_the_call = True
    bounded_wait = True
    go = asyncio.Event()

    @classmethod
    def build(cls, setup: TransportSetup) -> CourierTransport:
        return cls()

    async def show(self, question: PendingQuestion, caller: Caller) -> None:
        asked = question.interaction.asked
        assert isinstance(asked, BatchRequest)

        async def answer() -> None:
            await self.go.wait()
            question.finish(
                BatchAnswered(
                    answers={
                        item.id: Answered(
                            selected_ids=[
                                o.id for o in item.request.options or () if o.recommended
                            ],
                            custom_input=item.request.placeholder,
                            placeholder_used=item.request.placeholder is not None,
                        )
                        for item in asked.questions
                    }
                )
            )

        task = asyncio.get_running_loop().create_task(answer())
        question.on_finish(lambda _: task.cancel() if not self.go.is_set() else None)


@pytest.fixture
def courier() -> Iterator[type[CourierTransport]]:
    CourierTransport.go = asyncio.Event()
    unregister = register_transport(CourierTransport)
    yield CourierTransport
    unregister()


def text_of(result: Any) -> str:
    (content,) = result.content
    assert isinstance(content, TextContent)
    return str(content.text)


async def test_a_pending_batch_is_one_session_that_a_poll_waits_on(
    courier: type[CourierTransport],
) -> None:
    async with Client(create_server(max_wait_seconds=0.2)) as client:
        first = await client.call_tool("provide_choice", BATCH | {"transport": "courier"})
        pending = json.loads(text_of(first))
        assert pending["action_status"] == "pending"
        assert [answer["id"] for answer in pending["answers"]] == ["db", "features", "name"]
        assert all(answer["selected_ids"] == [] for answer in pending["answers"])
        session_id = pending["selection"]["session_id"]
        courier.go.set()
        polled = await client.call_tool("provide_choice", {"session_id": session_id})
    answered = json.loads(text_of(polled))
    assert answered["action_status"] == "selected"
    assert [answer["selected_ids"] for answer in answered["answers"]] == [["pg"], ["auth"], []]
    assert answered["answers"][2]["custom_input"] == "orders"


class PigeonTransport(CourierTransport):
    """A plug-in that shows one question at a time, never a batch."""

    kind = TransportKind("pigeon", "A pigeon", preference="By pigeon")


async def test_a_surface_without_batches_refuses_one_whole_and_says_which_take_them(
    courier: type[CourierTransport],
) -> None:
    unregister = register_transport(PigeonTransport)
    try:
        async with Client(create_server({"pigeon": PigeonTransport()})) as client:
            result = await client.call_tool("provide_choice", BATCH | {"transport": "pigeon"})
    finally:
        unregister()
    assert result.is_error
    assert text_of(result) == (
        "provide_choice cannot ask the person here: a pigeon cannot show several questions at "
        "once (questions); batches are shown by: the server's own terminal, a terminal the agent "
        "opens, the browser, the MCP client's own dialog, the MCP client's app view in the "
        "conversation, the Slack channel, the linked Telegram chat, a courier (name one with transport), or ask one question per call"
    )


async def test_a_batch_asked_without_a_transport_skips_a_surface_that_cannot_show_it(
    courier: type[CourierTransport],
) -> None:
    courier.go.set()
    # The person prefers a plug-in that shows one question at a time; the agent names none.
    unregister = register_transport(PigeonTransport)
    try:
        save_settings(InteractionSettings(transport="pigeon"))
        server = create_server({"pigeon": PigeonTransport(), "web": courier()})
        async with Client(server) as client:
            result = await client.call_tool("provide_choice", BATCH)
    finally:
        unregister()
    assert not result.is_error, text_of(result)
    selection = json.loads(text_of(result))["selection"]
    assert selection["transport"] == "web"
    assert selection["summary"].endswith(
        "(Asked in the browser: a pigeon cannot show several questions at once.)"
    )


async def test_the_problem_list_of_a_broken_batch_reaches_the_agent() -> None:
    broken = BATCH | {"questions": [DATABASE | {"options": []}, NAME | {"header": "h" * 31}]}
    async with Client(create_server()) as client:
        result = await client.call_tool("provide_choice", broken)
    assert result.is_error
    assert text_of(result).splitlines() == [
        "Invalid provide_choice request; nothing was shown to the person. Fix these problems and "
        "call again:",
        "- db: options must have at least 2 items for single, got 0",
        "- name: header must be at most 30 characters (a short chip), got 31",
    ]


def test_still_open_reads_the_same_as_a_single_question() -> None:
    response = normalize_batch(batch(), StillOpen(session_id="s", seconds_left=12), "web")
    assert response.action_status == "pending"
    assert response.selection.session_id == "s"
    assert 'call provide_choice again with only {"session_id": "s"}' in response.selection.summary


def test_a_batch_submission_means_each_answer_through_the_one_answer_from() -> None:
    settings = InteractionSettings()
    submission = BatchSubmission(
        answers={
            "db": Submission(selected_ids=["pg"]),
            "features": Submission(selected_ids=["auth", "search"]),
            "name": Submission(custom_input="", placeholder_shown=True),
        },
        global_annotation=" all set ",
    )
    assert batch_answer_from(submission, batch(), settings) == BatchAnswered(
        answers={
            "db": Answered(selected_ids=["pg"]),
            "features": Answered(selected_ids=["auth", "search"]),
            "name": Answered(custom_input="orders", placeholder_used=True),
        },
        global_annotation="all set",
    )


def test_every_problem_of_a_batch_submission_is_listed_with_its_question() -> None:
    submission = {
        "kind": "answered_batch",
        "answers": {
            "db": {"selected_ids": []},
            "other": {"selected_ids": ["x"]},
            "name": {"custom_input": "billing", "global_annotation": "mine"},
        },
        "global_annotation": "a note",
    }
    with pytest.raises(ChoicesError) as raised:
        read_batch_reported(submission, batch(), InteractionSettings(annotations=False))
    assert raised.value.problems == [
        "other: is not a question of this batch",
        "db: selected_ids must hold 1 id, got 0",
        "features: not answered",
        "name: global_annotation belongs to the batch, not a question",
        "the overall note is not offered: notes are off for this batch",
    ]
    assert read_batch_reported({"kind": "cancelled"}, batch(), InteractionSettings()) == (
        Cancelled()
    )


def test_a_draft_is_kept_only_when_the_person_gave_a_valid_answer() -> None:
    settings = InteractionSettings()
    database, _features, name = (item.request for item in batch().questions)
    assert kept_answer(Submission(selected_ids=["pg"]), database, settings) == Answered(
        selected_ids=["pg"]
    )
    assert kept_answer(Submission(selected_ids=["nope"]), database, settings) is None
    assert kept_answer(Submission(placeholder_shown=True), name, settings) is None
    assert kept_answer(Submission(custom_input="billing"), name, settings) == Answered(
        custom_input="billing"
    )

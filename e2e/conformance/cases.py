"""The conformance table: one answer, one response, on every surface (issue 16).

A row is a case: the question, the person's settings, what the person does, and the response that
every surface (the page, the server's terminal, the hand-off terminal, the client's dialog) must
return, except for `transport`, `url` and `session_id`. Add a case by adding a row; each surface's
test module runs every row. `python e2e/conformance/cases.py` prints the table as markdown.

The rule for `placeholder_used` that the rows pin: the placeholder is used when the response's
text came from it, that is, the person submitted with the text field empty while the placeholder
was shown, on a mode that takes text (text_input; hybrid with no option chosen). Typing text equal
to the placeholder is the person's own text. The client's form pre-fills the placeholder as the
field's default and cannot tell a kept default from typed text: there, an unchanged default is the
empty field.
"""

from __future__ import annotations

from typing import Any

from conformance import (
    Cancel,
    Case,
    Choose,
    Expected,
    In,
    LeaveTextEmpty,
    NoteOn,
    OverallNote,
    OwnSummary,
    Submit,
    SubmitRefused,
    Surface,
    Toggle,
    Type,
    Wait,
    markdown_table,
)

OPTIONS = [
    {"id": "pg", "label": "PostgreSQL", "description": "robust", "recommended": True},
    {"id": "lite", "label": "SQLite"},
    {"id": "duck", "label": "DuckDB"},
    {"id": "maria", "label": "MariaDB"},
]
SUGGESTION = "Use SQLite for now"
TIMEOUT = 2
"""Seconds the timeout cases wait: short, and still long enough to show the question."""

NO_DIALOG_NOTES = "a form has no notes on single options"
NO_CHAT_NOTES = "a chat message has no field for a note on an option or on the whole question"
FORM_DEFAULT = (
    "a form pre-fills the placeholder as its default and cannot tell it from typed text: "
    "it counts as the placeholder"
)


def own_words(text: str) -> Expected:
    """The person's own text as the answer."""
    return Expected("custom_input", f'Answered in their own words: "{text}".', custom_input=text)


SUGGESTION_ACCEPTED = Expected(
    "custom_input",
    f'Accepted the suggested answer: "{SUGGESTION}".',
    custom_input=SUGGESTION,
    placeholder_used=True,
)
NOTHING_SELECTED = Expected("selected", "Submitted with nothing selected.")
CANCELLED = Expected("cancelled", "Cancelled by the person; nothing selected.")
DIALOG_DISMISSED = OwnSummary(
    "The person dismissed the MCP client's dialog without answering; nothing selected.",
    "the documentation promises that a cancel in the client's dialog says whether the person declined "
    "or dismissed it",
)


IN_ORDER = (
    "a terminal asks a batch's questions in order and sends from the review that follows the "
    "last, so there is no submit before every question is answered"
)
ANSWERED_ON_THE_WAY = (
    "a terminal asks a batch's questions in order: reaching Features answers Database first "
    "(batch-timeout-after-the-first-question is this row for the terminals)"
)
ONE_MESSAGE_AFTER_ANOTHER = (
    "a chat asks a batch's questions one message after another and sends with the last "
    "answer, so there is no going back and no submit before every question is answered"
)
ANSWERED_BEFORE = (
    "a chat asks a batch's questions one message after another: Features comes once "
    "Database is answered (batch-timeout-after-the-first-question is this row there)"
)
TERMINALS: dict[Surface, str] = {
    "terminal": IN_ORDER,
    "terminal_handoff": IN_ORDER,
    "telegram": ONE_MESSAGE_AFTER_ANOTHER,
    "slack": ONE_MESSAGE_AFTER_ANOTHER,
}
BATCH_QUESTIONS: list[dict[str, Any]] = [
    {
        "id": "db",
        "header": "Database",
        "prompt": "The app needs storage and none is configured.",
        "selection_mode": "single",
        "options": [
            {**OPTIONS[0], "preview": "```yaml\ndatabase: postgresql://localhost/app\n```"},
            {**OPTIONS[1], "preview": "```yaml\ndatabase: sqlite:///app.db\n```"},
        ],
    },
    {
        "id": "features",
        "header": "Features",
        "prompt": "Which features go in the first release?",
        "selection_mode": "multi",
        "default_selection_ids": ["auth"],
        "options": [
            {"id": "auth", "label": "Login", "recommended": True},
            {"id": "search", "label": "Search"},
            {"id": "export", "label": "Export"},
        ],
    },
    {
        "id": "name",
        "header": "Name",
        "prompt": "What should the service be called?",
        "selection_mode": "text_input",
        "placeholder": "orders",
    },
]


NOTHING_KEPT_BY_A_FORM = "a form sends its fields only when submitted: nothing is kept"


def batch(**changes: Any) -> dict[str, Any]:
    """The batch the batch rows ask: a single choice, a multiple choice, a text."""
    return {"title": "Project set-up", "questions": BATCH_QUESTIONS} | changes


def answer(question_id: str, *selected: str, **changes: Any) -> dict[str, Any]:
    """One question's answer in a batch's `answers`."""
    empty = {"custom_input": None, "option_annotations": {}, "placeholder_used": False}
    return {"id": question_id, "selected_ids": list(selected)} | empty | changes


def question(mode: str, **changes: Any) -> dict[str, Any]:
    """The question every case asks, in `mode`, with the case's own fields."""
    request: dict[str, Any] = {
        "title": "Database",
        "prompt": "The app needs storage and none is configured.",
        "selection_mode": mode,
        "options": OPTIONS,
    }
    if mode == "text_input":
        del request["options"]
    return request | changes


CASES = [
    # single
    Case(
        "single-choice-sends",
        question("single"),
        (Choose("lite"),),
        Expected("selected", "Selected: SQLite.", ("lite",)),
    ),
    Case(
        "single-default-kept",
        question("single", default_selection_ids=["pg"], single_submit_mode=False),
        (Submit(),),
        Expected("selected", "Selected: PostgreSQL.", ("pg",)),
    ),
    Case(
        "single-default-changed",
        question("single", default_selection_ids=["pg"], single_submit_mode=False),
        (Choose("duck"), Submit()),
        Expected("selected", "Selected: DuckDB.", ("duck",)),
    ),
    Case(
        "single-notes-on-option-and-question",
        question("single", single_submit_mode=False),
        (
            Choose("duck"),
            NoteOn("duck", "for the reports"),
            OverallNote("decide by Friday"),
            Submit(),
        ),
        Expected(
            "selected",
            "Selected: DuckDB (with notes on DuckDB and an overall note).",
            ("duck",),
            option_annotations={"duck": "for the reports"},
            global_annotation="decide by Friday",
        ),
        not_expressible={
            "elicitation": NO_DIALOG_NOTES,
            "telegram": NO_CHAT_NOTES,
            "slack": NO_CHAT_NOTES,
        },
    ),
    Case(
        "single-cancel",
        question("single", default_selection_ids=["pg"]),
        (Cancel(),),
        CANCELLED,
        own_summary={"elicitation": DIALOG_DISMISSED},
    ),
    Case(
        "single-timeout-return-defaults",
        question("single", default_selection_ids=["pg"], timeout_seconds=TIMEOUT),
        (Wait(),),
        Expected(
            "timeout",
            "No answer before the deadline; defaults returned, not chosen by the person: "
            "PostgreSQL.",
            ("pg",),
        ),
        settings={"timeout_action": "return_defaults"},
    ),
    Case(
        "single-timeout-return-nothing",
        question("single", default_selection_ids=["pg"], timeout_seconds=TIMEOUT),
        (Wait(),),
        Expected("timeout", "No answer before the deadline; nothing selected."),
        settings={"timeout_action": "return_nothing"},
    ),
    # multi
    Case(
        "multi-defaults-kept",
        question("multi", default_selection_ids=["pg", "lite"]),
        (Submit(),),
        Expected("selected", "Selected: PostgreSQL, SQLite.", ("pg", "lite")),
    ),
    Case(
        "multi-defaults-changed",
        question("multi", default_selection_ids=["pg", "lite"]),
        (Toggle("lite"), Toggle("maria"), Submit()),
        Expected("selected", "Selected: PostgreSQL, MariaDB.", ("pg", "maria")),
    ),
    Case(
        "multi-below-minimum-refused-then-minimum",
        question("multi", min_selections=2, max_selections=3),
        (Toggle("duck"), SubmitRefused(), Toggle("lite"), Submit()),
        Expected("selected", "Selected: SQLite, DuckDB.", ("lite", "duck")),
    ),
    Case(
        "multi-beyond-maximum-refused-then-maximum",
        question("multi", min_selections=2, max_selections=3),
        (
            Toggle("pg"),
            Toggle("lite"),
            Toggle("duck"),
            Toggle("maria"),
            SubmitRefused(),
            Toggle("lite"),
            Submit(),
        ),
        Expected("selected", "Selected: PostgreSQL, DuckDB, MariaDB.", ("pg", "duck", "maria")),
    ),
    Case(
        "multi-notes-on-options",
        question("multi"),
        (
            Toggle("pg"),
            NoteOn("pg", "only with backups"),
            Toggle("duck"),
            NoteOn("duck", "read-only"),
            Submit(),
        ),
        Expected(
            "selected",
            "Selected: PostgreSQL, DuckDB (with notes on PostgreSQL, DuckDB).",
            ("pg", "duck"),
            option_annotations={"pg": "only with backups", "duck": "read-only"},
        ),
        not_expressible={
            "elicitation": NO_DIALOG_NOTES,
            "telegram": NO_CHAT_NOTES,
            "slack": NO_CHAT_NOTES,
        },
    ),
    Case(
        "multi-note-on-the-question",
        question("multi"),
        (Toggle("lite"), OverallNote("for the CI only"), Submit()),
        Expected(
            "selected",
            "Selected: SQLite (with an overall note).",
            ("lite",),
            global_annotation="for the CI only",
        ),
        not_expressible={"telegram": NO_CHAT_NOTES, "slack": NO_CHAT_NOTES},
    ),
    # text_input
    Case(
        "text-placeholder-shown-left-empty",
        question("text_input", placeholder=SUGGESTION),
        (LeaveTextEmpty(), Submit()),
        SUGGESTION_ACCEPTED,
    ),
    Case(
        "text-own-answer",
        question("text_input", placeholder=SUGGESTION),
        (Type("PostgreSQL 16 on the shared host"), Submit()),
        own_words("PostgreSQL 16 on the shared host"),
    ),
    Case(
        "text-typed-equal-to-placeholder",
        question("text_input", placeholder=SUGGESTION),
        (Type(SUGGESTION), Submit()),
        own_words(SUGGESTION),
        not_expressible={"elicitation": FORM_DEFAULT},
    ),
    Case(
        "text-placeholder-hidden-by-request",
        question("text_input", placeholder=SUGGESTION, placeholder_visible=False),
        (LeaveTextEmpty(), SubmitRefused(), Type("Redis"), Submit()),
        own_words("Redis"),
    ),
    Case(
        "text-placeholder-hidden-by-setting",
        question("text_input", placeholder=SUGGESTION),
        (LeaveTextEmpty(), SubmitRefused(), Type("Redis"), Submit()),
        own_words("Redis"),
        settings={"placeholder_visible": False},
    ),
    Case(
        "text-cancel",
        question("text_input", placeholder=SUGGESTION),
        (Type("half an answer"), Cancel()),
        CANCELLED,
        own_summary={"elicitation": DIALOG_DISMISSED},
    ),
    # hybrid
    Case(
        "hybrid-placeholder-shown-nothing-chosen",
        question("hybrid", placeholder=SUGGESTION),
        (LeaveTextEmpty(), Submit()),
        SUGGESTION_ACCEPTED,
    ),
    Case(
        "hybrid-option-chosen-text-empty",
        question("hybrid", placeholder=SUGGESTION),
        (Choose("duck"), LeaveTextEmpty(), Submit()),
        Expected("selected", "Selected: DuckDB.", ("duck",)),
    ),
    Case(
        "hybrid-placeholder-hidden-by-request-nothing-chosen",
        question("hybrid", placeholder=SUGGESTION, placeholder_visible=False),
        (LeaveTextEmpty(), Submit()),
        NOTHING_SELECTED,
    ),
    Case(
        "hybrid-placeholder-hidden-by-setting-nothing-chosen",
        question("hybrid", placeholder=SUGGESTION),
        (LeaveTextEmpty(), Submit()),
        NOTHING_SELECTED,
        settings={"placeholder_visible": False},
    ),
    Case(
        "hybrid-own-answer",
        question("hybrid", placeholder=SUGGESTION),
        (Type("Redis"), Submit()),
        own_words("Redis"),
    ),
    Case(
        "hybrid-typed-equal-to-placeholder",
        question("hybrid", placeholder=SUGGESTION),
        (Type(SUGGESTION), Submit()),
        own_words(SUGGESTION),
        not_expressible={"elicitation": FORM_DEFAULT},
    ),
    Case(
        "hybrid-own-answer-beside-options",
        question("hybrid", max_selections=2),
        (Toggle("pg"), Type("with a Redis cache"), OverallNote("ask ops first"), Submit()),
        Expected(
            "custom_input",
            'Answered in their own words: "with a Redis cache" (also selected: PostgreSQL) '
            "(with an overall note).",
            ("pg",),
            custom_input="with a Redis cache",
            global_annotation="ask ops first",
        ),
        not_expressible={"telegram": NO_CHAT_NOTES, "slack": NO_CHAT_NOTES},
    ),
    Case(
        "hybrid-default-kept",
        question("hybrid", placeholder=SUGGESTION, default_selection_ids=["pg"]),
        (LeaveTextEmpty(), Submit()),
        Expected("selected", "Selected: PostgreSQL.", ("pg",)),
    ),
]
CASES += [
    Case(
        "batch-three-modes-answer-changed-before-submit",
        batch(),
        (
            In("db", Choose("lite")),
            In("features", Toggle("search")),
            In("name", LeaveTextEmpty()),
            In("db", Choose("pg")),
            Submit(),
        ),
        Expected(
            "selected",
            "Answered 3 questions. Database: Selected: PostgreSQL. Features: Selected: Login, "
            'Search. Name: Accepted the suggested answer: "orders".',
            answers=(
                answer("db", "pg"),
                answer("features", "auth", "search"),
                answer("name", custom_input="orders", placeholder_used=True),
            ),
        ),
        not_expressible={
            "telegram": ONE_MESSAGE_AFTER_ANOTHER,
            "slack": ONE_MESSAGE_AFTER_ANOTHER,
        },
    ),
    Case(
        "batch-answered-in-order",
        batch(),
        (
            In("db", Choose("lite")),
            In("features", Toggle("search")),
            In("name", Type("billing")),
            Submit(),
        ),
        Expected(
            "selected",
            "Answered 3 questions. Database: Selected: SQLite. Features: Selected: Login, "
            'Search. Name: Answered in their own words: "billing".',
            answers=(
                answer("db", "lite"),
                answer("features", "auth", "search"),
                answer("name", custom_input="billing"),
            ),
        ),
    ),
    Case(
        "batch-submit-refused-until-every-question-is-answered",
        batch(),
        (SubmitRefused(), In("db", Choose("lite")), In("name", Type("billing")), Submit()),
        Expected(
            "selected",
            "Answered 3 questions. Database: Selected: SQLite. Features: Selected: Login. Name: "
            'Answered in their own words: "billing".',
            answers=(
                answer("db", "lite"),
                answer("features", "auth"),
                answer("name", custom_input="billing"),
            ),
        ),
        not_expressible=TERMINALS,
    ),
    Case(
        "batch-cancelled-half-way",
        batch(),
        (In("db", Choose("lite")), Cancel()),
        Expected(
            "cancelled",
            "Cancelled by the person after 1 of 3 questions. Database: Selected: SQLite. "
            "Features: Not answered; defaults returned, not chosen by the person: Login. Name: "
            "Not answered; no defaults to return, nothing selected.",
            answers=(answer("db", "lite"), answer("features", "auth"), answer("name")),
        ),
        settings={"timeout_action": "return_defaults"},
        not_expressible={
            "elicitation": "a dismissed form sends none of its fields: nothing is kept"
        },
    ),
    Case(
        "batch-timeout-half-way",
        batch(timeout_seconds=TIMEOUT + 4),
        (In("features", Toggle("export")), Wait()),
        Expected(
            "timeout",
            "The deadline passed after 1 of 3 questions. Database: Not answered; nothing "
            "selected. Features: Selected: Login, Export. Name: Not answered; nothing selected.",
            answers=(answer("db"), answer("features", "auth", "export"), answer("name")),
        ),
        settings={"timeout_action": "return_nothing"},
        not_expressible={
            "elicitation": NOTHING_KEPT_BY_A_FORM,
            "terminal": ANSWERED_ON_THE_WAY,
            "terminal_handoff": ANSWERED_ON_THE_WAY,
            "telegram": ANSWERED_BEFORE,
            "slack": ANSWERED_BEFORE,
        },
    ),
    Case(
        "batch-timeout-after-the-first-question",
        batch(timeout_seconds=TIMEOUT + 4),
        (In("db", Choose("lite")), Wait()),
        Expected(
            "timeout",
            "The deadline passed after 1 of 3 questions. Database: Selected: SQLite. Features: "
            "Not answered; nothing selected. Name: Not answered; nothing selected.",
            answers=(answer("db", "lite"), answer("features"), answer("name")),
        ),
        settings={"timeout_action": "return_nothing"},
        not_expressible={"elicitation": NOTHING_KEPT_BY_A_FORM},
    ),
]

if __name__ == "__main__":
    print(markdown_table(CASES))

"""The answers file: its shape checked once at start, the first rule whose title fits answering as
a person would (through the server's one `respond`), and a rule that does not fit refused by name."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_types import TextContent
from prompts import DATABASE_REQUEST as DATABASE

from provide_choice import create_server
from provide_choice._contract._answers_file import AnswersFileError, load_answers_file
from provide_choice._server._unattended import AnswerPolicy

OPTIONS = DATABASE["options"]
BATCH = {
    "title": "Project set-up",
    "questions": [
        {"id": "db", "prompt": "Which database?", "selection_mode": "single", "options": OPTIONS},
        {"id": "name", "prompt": "What is it called?", "selection_mode": "text_input"},
    ],
}


def answers_file(tmp_path: Path, *rules: dict[str, Any], name: str = "answers.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps({"answers": list(rules)}))
    return str(path)


async def ask(
    file: str, request: dict[str, Any], *, unattended: str | None = None
) -> tuple[bool, Any]:
    """Whether the server refused `request`, and its structured content (or its error's text)."""
    policy = AnswerPolicy(load_answers_file(file), unattended)
    async with Client(create_server(policy=policy)) as client:
        result = await client.call_tool("provide_choice", request)
    if result.is_error:
        (content,) = result.content
        assert isinstance(content, TextContent)
        return True, content.text
    return False, result.structured_content


def answered(file: str, request: dict[str, Any], **options: Any) -> dict[str, Any]:
    refused, response = anyio.run(lambda: ask(file, request, **options))
    assert not refused, response
    assert isinstance(response, dict)
    return response


def refusal(file: str, request: dict[str, Any]) -> str:
    refused, text = anyio.run(ask, file, request)
    assert refused
    assert isinstance(text, str)
    return text


def test_a_rule_by_title_answers_at_once_as_a_person_would_with_its_note(tmp_path: Path) -> None:
    file = answers_file(tmp_path, {"title": "Database", "selected_ids": ["lite"], "note": "CI"})
    response = answered(file, DATABASE)
    assert response["action_status"] == "selected"
    assert response["answered_by"] == "answers_file"
    selection = response["selection"]
    assert selection["selected_ids"] == ["lite"]
    assert selection["global_annotation"] == "CI"
    assert (selection["transport"], selection["url"], selection["session_id"]) == (None,) * 3
    assert selection["summary"] == (
        f"Selected: SQLite (with an overall note). (from the answers file {file})"
    )


def test_the_first_rule_that_fits_wins_and_title_matches_searches_anywhere(
    tmp_path: Path,
) -> None:
    file = answers_file(
        tmp_path,
        {"title": "Database setup", "selected_ids": ["pg"]},
        {"title_matches": "base$", "selected_ids": ["lite"]},
        {"title": "Database", "selected_ids": ["pg"]},
    )
    assert answered(file, DATABASE)["selection"]["selected_ids"] == ["lite"]


def test_the_name_of_the_file_is_said_as_it_was_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers_file(tmp_path, {"title": "Database", "selected_ids": ["pg"]}, name="ci.json")
    monkeypatch.chdir(tmp_path)
    summary = answered("ci.json", DATABASE)["selection"]["summary"]
    assert summary == "Selected: PostgreSQL. (from the answers file ci.json)"


def test_a_text_answer_is_custom_input_and_a_batch_is_answered_question_by_question(
    tmp_path: Path,
) -> None:
    file = answers_file(
        tmp_path,
        {"title": "Name", "custom_input": "billing"},
        {
            "title": "Project set-up",
            "questions": {"db": {"selected_ids": ["pg"]}, "name": {"custom_input": "orders"}},
            "note": "as in CI",
        },
    )
    text = {"title": "Name", "prompt": "What is it called?", "selection_mode": "text_input"}
    response = answered(file, text)
    assert (response["action_status"], response["selection"]["custom_input"]) == (
        "custom_input",
        "billing",
    )
    batch = answered(file, BATCH)
    assert (batch["action_status"], batch["answered_by"]) == ("selected", "answers_file")
    assert [(answer["selected_ids"], answer["custom_input"]) for answer in batch["answers"]] == [
        (["pg"], None),
        ([], "orders"),
    ]
    assert batch["selection"]["global_annotation"] == "as in CI"
    assert batch["selection"]["summary"].endswith(f"(from the answers file {file})")


@pytest.mark.parametrize(
    ("rule", "request_", "problem"),
    [
        (
            {"selected_ids": ["mysql"]},
            DATABASE,
            "- selected_ids: 'mysql' is not an option id",
        ),
        (
            {"selected_ids": ["pg", "lite"]},
            DATABASE,
            "- selected_ids must hold 1 id, got 2",
        ),
        (
            {"custom_input": "MariaDB"},
            DATABASE,
            "- custom_input is not allowed for single",
        ),
        (
            {"questions": {"db": {"selected_ids": ["pg"]}}},
            BATCH,
            "- name: not answered",
        ),
        (
            {"selected_ids": ["pg"]},
            BATCH,
            "- a single answer cannot answer a batch: answer each question by its id",
        ),
    ],
    ids=["unknown-id", "two-ids-for-single", "text-for-choices", "batch-id-missing", "not-batch"],
)
def test_a_rule_that_does_not_fit_is_an_error_naming_the_file_and_the_rule(
    tmp_path: Path, rule: dict[str, Any], request_: dict[str, Any], problem: str
) -> None:
    title = {"title": request_["title"]}
    file = answers_file(tmp_path, {"title": "Other", "selected_ids": ["x"]}, title | rule)
    text = refusal(file, request_)
    first, *problems = text.splitlines()
    assert first.startswith(f"The answers file {file} cannot answer this question: its rule ")
    assert "answers[1] matches the title but does not fit the question" in first
    assert "nothing was guessed" in first
    assert problem in problems
    assert any(line.startswith("- the question takes") or "takes" in line for line in problems)


def test_a_misfit_shows_nothing_and_records_nothing_as_answered(tmp_path: Path) -> None:
    # The misfit is a refusal before anything is shown: no transport is asked for, none is set up.
    file = answers_file(tmp_path, {"title": "Database", "selected_ids": ["nope"]})
    assert "answers[0]" in refusal(file, DATABASE)
    assert not (tmp_path / "history.sqlite3").exists()


def test_a_question_no_rule_fits_is_asked_when_attended_and_nobody_s_when_unattended(
    tmp_path: Path,
) -> None:
    file = answers_file(tmp_path, {"title": "Something else", "selected_ids": ["pg"]})
    unattended = answered(file, DATABASE, unattended="the server runs unattended (tests)")
    assert (unattended["action_status"], unattended["answered_by"]) == ("unattended", "nobody")
    refused, text = anyio.run(ask, file, DATABASE)  # attended, and no surface in this server
    assert refused
    assert text.startswith("provide_choice cannot ask the person here")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "the answers file {file} does not exist"),
        ('{"answers": [\n  {"title": "x",}\n]}', "is not valid JSON: Expecting property name "),
        ("[1, 2]", "the file must hold an object, got a list"),
        ("{}", "answers is required"),
        ('{"answers": [{"title": "A", "selected_id": ["x"]}]}', "answers[0].selected_id is not"),
        ('{"answers": [{"selected_ids": ["x"]}]}', "answers[0] must have either title or "),
        ('{"answers": [{"title": "A", "title_matches": "B", "custom_input": "x"}]}', "either"),
        ('{"answers": [{"title_matches": "(", "selected_ids": []}]}', "no regular expression"),
        ('{"answers": [{"title": "A"}]}', "answers[0] gives no answer"),
        (
            '{"answers": [{"title": "A", "selected_ids": ["x"], "questions": {}}]}',
            "not both",
        ),
        ('{"answers": [{"title": "A", "selected_ids": "x"}]}', "must be a list"),
    ],
    ids=[
        "missing",
        "not-json",
        "not-an-object",
        "no-answers",
        "unknown-key",
        "no-title",
        "two-titles",
        "bad-regex",
        "no-answer",
        "both-answers",
        "ids-not-a-list",
    ],
)
def test_a_file_that_cannot_be_used_is_refused_in_one_line_naming_it(
    tmp_path: Path, content: str | None, problem: str
) -> None:
    file = tmp_path / "answers.json"
    if content is not None:
        file.write_text(content)
    with pytest.raises(AnswersFileError) as refused:
        load_answers_file(str(file))
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith(f"the answers file {file} ")
    assert problem.format(file=file) in message


def test_json_problems_say_the_line_and_column(tmp_path: Path) -> None:
    file = answers_file(tmp_path)
    Path(file).write_text('{"answers": [\n  {"title": "x",}\n]}')
    with pytest.raises(AnswersFileError, match=r"\(line 2, column 17\)$"):
        load_answers_file(file)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_a_file_that_cannot_be_read_says_why(tmp_path: Path) -> None:
    file = answers_file(tmp_path)
    Path(file).chmod(0)
    with pytest.raises(AnswersFileError, match="cannot be read"):
        load_answers_file(file)

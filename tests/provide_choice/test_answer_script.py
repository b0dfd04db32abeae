"""The page's script says when Submit may be pressed with functions of its own (script/answer.js:
what a draft submits, whether it holds an own answer, why it cannot be sent). This table runs every
single-question case of the conformance table, with every draft a person could make of it, through
those functions in Node and through the server's (`_meaning.check_submission`), and fails on any
difference: the script may refuse only what the server refuses, in the server's words."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from cases import CASES

from provide_choice import Interaction, InteractionSettings, parse_request
from provide_choice._bridge._local_http import asset
from provide_choice._contract._meaning import check_submission, meaning
from provide_choice._contract._presentation import count_refusal
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._question import QuestionRegistry
from provide_choice._transports._question_view._document import PACKAGE
from provide_choice._transports._question_view._drafts import Draft, submission_of
from provide_choice._transports._question_view._state import QuestionPage

RUNNER = Path(__file__).parents[1] / "support" / "answer_script.mjs"
NODE = shutil.which("node")
TYPED = ("", "  ", "PostgreSQL 16", "Use SQLite for now")
"""What a person may leave in the text field: nothing, blanks, own words, the suggestion itself."""

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: the script is not run")


def drafts(request: ProvideChoiceRequest) -> list[Draft]:
    """Every choice of options (up to every option) with every kind of text."""
    ids = request.option_ids
    chosen = [
        list(subset) for size in range(len(ids) + 1) for subset in itertools.combinations(ids, size)
    ]
    texts = TYPED if request.selection_mode in ("text_input", "hybrid") else ("",)
    return [
        Draft(selected_ids=ids_, custom_input=text)
        for ids_, text in itertools.product(chosen, texts)
    ]


def run_script(cases: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    script = asset("script/answer.js", PACKAGE)
    completed = subprocess.run(
        [str(NODE), str(RUNNER)],
        input=json.dumps({"script": script, "cases": cases}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    results: list[list[dict[str, Any]]] = json.loads(completed.stdout)
    return results


async def test_the_script_refuses_exactly_what_the_server_refuses_in_its_words() -> None:
    registry = QuestionRegistry()
    table = []
    for case in CASES:
        if case.questions:
            continue
        request = parse_request(case.request)
        settings = InteractionSettings.model_validate(case.settings)
        page = QuestionPage(registry.create(Interaction.start(request, settings), "web"))
        table.append((case.id, request, settings, page.state(), drafts(request)))
    results = run_script(
        [
            {"state": state, "drafts": [draft.model_dump() for draft in case_drafts]}
            for _id, _request, _settings, state, case_drafts in table
        ]
    )
    compared = 0
    for (case_id, request, settings, _state, case_drafts), shown in zip(
        table, results, strict=True
    ):
        for draft, script in zip(case_drafts, shown, strict=True):
            submission = submission_of(draft, request, settings)
            where = f"{case_id}, {draft!r}"
            assert script["submission"] == submission.model_dump(), where
            problems = check_submission(submission, request, settings)
            assert (script["refusal"] is None) == (problems == []), f"{where}: {problems}"
            if script["refusal"] is not None and request.selection_mode != "text_input":
                own = meaning(submission, request, settings).custom_input is not None
                words = count_refusal(request, own, len(draft.selected_ids))
                assert script["refusal"] == words, where
            compared += 1
    assert compared > 500, "the table holds every case's drafts"

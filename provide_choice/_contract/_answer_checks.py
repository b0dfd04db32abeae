"""The checks an answer passes before it becomes a response: its ids are the request's options,
each once; its count is within the limits; its text is what the mode allows; its notes are allowed.

`normalize` refuses an outcome that fails them (`ChoicesError`), so no transport can return ids
that are not options or counts outside the limits; a page's draft is checked by `id_problems`
alike.
"""

from __future__ import annotations

from collections.abc import Iterable

from present_choices._schema import quote
from provide_choice._contract._outcomes import Answered, BatchAnswered, Reply
from provide_choice._contract._request import ProvideChoiceRequest, id_count, limits_for

BATCH_ANSWER_TO_ONE = "answers of a batch cannot answer a single question"


def outcome_problems(request: ProvideChoiceRequest, outcome: Reply) -> list[str]:
    """Why this outcome cannot be an answer to this request (empty when it can)."""
    if isinstance(outcome, BatchAnswered):
        return [BATCH_ANSWER_TO_ONE]
    if not isinstance(outcome, Answered):
        return []
    problems = id_problems(request, outcome.selected_ids, outcome.option_annotations)
    problems += _count_problems(request, outcome)
    problems += _text_problems(request, outcome)
    if not request.allow_annotations and (outcome.option_annotations or outcome.global_annotation):
        problems.append("notes are not allowed: the request has allow_annotations false")
    return problems


def id_problems(
    request: ProvideChoiceRequest, selected_ids: list[str], annotated_ids: Iterable[str]
) -> list[str]:
    """Ids that are not the request's options, or are selected twice (answers and drafts alike)."""
    ids = request.option_ids
    problems = [
        f"selected_ids: {quote(option_id)} is not an option id"
        for option_id in selected_ids
        if option_id not in ids
    ]
    if len(set(selected_ids)) != len(selected_ids):
        problems.append("selected_ids must not repeat an id")
    return problems + [
        f"option_annotations: {quote(option_id)} is not an option id"
        for option_id in annotated_ids
        if option_id not in ids
    ]


def _count_problems(request: ProvideChoiceRequest, outcome: Answered) -> list[str]:
    minimum, maximum = limits_for(request, outcome.custom_input is not None)
    count = len(outcome.selected_ids)
    if minimum <= count <= maximum:
        return []
    return [f"selected_ids must hold {id_count(minimum, maximum)}, got {count}"]


def _text_problems(request: ProvideChoiceRequest, outcome: Answered) -> list[str]:
    mode = request.selection_mode
    text = outcome.custom_input
    problems = []
    if mode in ("single", "multi") and text is not None:
        problems.append(f"custom_input is not allowed for {mode}")
    if mode == "text_input" and not (text or "").strip():
        problems.append("custom_input is required for text_input")
    if text is not None and not text.strip() and mode == "hybrid":
        problems.append("custom_input must not be empty; leave it null when nothing was typed")
    if outcome.placeholder_used and (request.placeholder is None or text != request.placeholder):
        problems.append(
            "placeholder_used is true but custom_input is not the request's placeholder"
        )
    return problems

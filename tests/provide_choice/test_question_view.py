"""One question's web page without a browser: the state it shows, and every change the person
makes (draft, settings, hidden options, answer) validated before it is kept."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from present_choices import ChoicesError
from provide_choice import (
    Answered,
    BatchRequest,
    Cancelled,
    Interaction,
    InteractionSettings,
    TimedOut,
    load_settings,
    parse_call,
    parse_request,
    save_settings,
)
from provide_choice._bridge._local_http import asset
from provide_choice._question import QuestionRegistry, _pending
from provide_choice._settings_file import save_changes
from provide_choice._transports._question_view._document import PACKAGE, SCRIPT_PARTS
from provide_choice._transports._question_view._drafts import NOTE_LIMIT, TEXT_LIMIT
from provide_choice._transports._question_view._pages import QuestionPages
from provide_choice._transports._question_view._state import QuestionEnded, QuestionPage
from provide_choice._transports._web._page import PACKAGE as WEB
from provide_choice._transports._web._page import PAGE_PARTS, page_html, page_script

MULTI = {
    "title": "Checks",
    "prompt": "Which checks should run before the release?",
    "selection_mode": "multi",
    "options": [
        {"id": "unit", "label": "Unit tests", "recommended": True},
        {"id": "e2e", "label": "Browser tests", "description": "8 minutes"},
        {"id": "bench", "label": "Benchmarks"},
    ],
    "default_selection_ids": ["unit"],
    "min_selections": 1,
    "max_selections": 2,
}
HYBRID = {
    "title": "Name",
    "prompt": "What should the service be called?",
    "selection_mode": "hybrid",
    "options": [{"id": "orders", "label": "orders", "recommended": True}],
    "placeholder": "orders-api",
}


def open_page(
    request: dict[str, Any] | None = None,
    settings: InteractionSettings | None = None,
    registry: QuestionRegistry | None = None,
) -> QuestionPage:
    interaction = Interaction.start(
        parse_request(request or MULTI), settings or InteractionSettings()
    )
    registry = registry or QuestionRegistry()
    return QuestionPages(registry, "web").open(registry.create(interaction, "web"))


def problems_of(error: pytest.ExceptionInfo[ChoicesError]) -> list[str]:
    return error.value.problems


async def test_the_state_shows_the_question_with_its_defaults_and_the_time_left() -> None:
    page = open_page(MULTI | {"timeout_seconds": 90})
    state = page.state()
    assert state["status"] == "pending"
    assert 89 < state["seconds_left"] <= 90
    assert state["mode"] == "multi"
    assert state["options"][1] == {
        "id": "e2e",
        "label": "Browser tests",
        "description": "8 minutes",
        "recommended": False,
        "preview_html": None,
    }
    assert state["limits"] == {"minimum": 1, "maximum": 2}
    assert state["draft"]["selected_ids"] == ["unit"]
    assert state["notes"] is True
    assert state["submits_on_selection"] is False
    json.dumps(state)  # all of it travels as JSON


@pytest.mark.parametrize(
    ("request_fields", "settings", "shown"),
    [
        ({}, InteractionSettings(), "orders-api"),
        ({"placeholder_visible": False}, InteractionSettings(), None),
        (
            {"placeholder_visible": False},
            InteractionSettings(placeholder_visible=True),
            "orders-api",
        ),
        ({}, InteractionSettings(placeholder_visible=False), None),
    ],
)
async def test_the_persons_placeholder_setting_wins_over_the_request(
    request_fields: dict[str, Any], settings: InteractionSettings, shown: str | None
) -> None:
    assert open_page(HYBRID | request_fields, settings).state()["placeholder"] == shown


async def test_single_submit_and_notes_follow_the_settings_as_in_the_terminal() -> None:
    single = MULTI | {"selection_mode": "single", "max_selections": None, "min_selections": None}
    assert open_page(single).state()["submits_on_selection"] is True
    batch = open_page(single, InteractionSettings(single_submit=False)).state()
    assert batch["submits_on_selection"] is False
    assert open_page(MULTI | {"allow_annotations": False}).state()["notes"] is False
    assert open_page(MULTI, InteractionSettings(annotations=False)).state()["notes"] is False


@pytest.mark.parametrize(
    ("request_fields", "settings", "instruction"),
    [
        (MULTI, InteractionSettings(), "Choose 1 to 2 options."),
        (
            MULTI | {"min_selections": 2, "default_selection_ids": []},
            InteractionSettings(),
            "Choose exactly 2 options.",
        ),
        (HYBRID, InteractionSettings(), "Choose up to 1 option, or type your own answer."),
        (
            MULTI | {"selection_mode": "single", "min_selections": None, "max_selections": None},
            InteractionSettings(),
            "Choose one: choosing an option sends your answer.",
        ),
        (
            MULTI | {"selection_mode": "single", "min_selections": None, "max_selections": None},
            InteractionSettings(single_submit=False),
            "Choose exactly 1 option.",
        ),
    ],
)
async def test_the_instruction_above_the_options_comes_from_the_server(
    request_fields: dict[str, Any], settings: InteractionSettings, instruction: str
) -> None:
    assert open_page(request_fields, settings).state()["instruction"] == instruction


async def test_the_state_says_why_an_answer_of_each_count_cannot_be_sent() -> None:
    multi = open_page().state()["refusals"]
    same = ["Choose 1 to 2 options (0 chosen)", None, None, "Choose 1 to 2 options (3 chosen)"]
    assert multi == {"options_only": same, "with_own_answer": same}
    hybrid = HYBRID | {
        "options": MULTI["options"],
        "min_selections": 1,
        "max_selections": 2,
        "default_selection_ids": [],
    }
    assert open_page(hybrid).state()["refusals"] == {
        "options_only": [
            "Choose 1 to 2 options, or type your own answer (0 chosen)",
            None,
            None,
            "Choose 1 to 2 options, or type your own answer (3 chosen)",
        ],
        # Typing an own answer waives the minimum: the page takes that from here.
        "with_own_answer": [None, None, None, "Choose up to 2 options (3 chosen)"],
    }


@pytest.mark.parametrize("own_words", [None, "a name of my own"])
async def test_the_refusals_the_page_shows_are_the_ones_an_answer_is_checked_against(
    own_words: str | None,
) -> None:
    hybrid = HYBRID | {
        "options": MULTI["options"],
        "min_selections": 1,
        "max_selections": 2,
        "default_selection_ids": [],
        "placeholder": None,
    }
    refusals = open_page(hybrid).state()["refusals"]
    by_count = refusals["options_only" if own_words is None else "with_own_answer"]
    ids = [option["id"] for option in MULTI["options"]]
    for count in range(len(ids) + 1):
        page = open_page(hybrid)
        answer = {"kind": "answered", "selected_ids": ids[:count], "custom_input": own_words}
        if by_count[count] is None:
            await page.answer(answer)
            assert page.state()["status"] == "answered"
        else:
            with pytest.raises(ChoicesError):
                await page.answer(answer)


async def test_the_length_limits_the_page_shows_are_the_ones_a_draft_is_kept_with() -> None:
    page = open_page()
    state = page.state()
    text, note = state["text_limit"], state["note_limit"]
    assert (text, note) == (TEXT_LIMIT, NOTE_LIMIT)

    def draft(text_length: int, note_length: int) -> dict[str, Any]:
        notes = "x" * note_length
        return {
            "custom_input": "x" * text_length,
            "global_annotation": notes,
            "option_annotations": {"e2e": notes},
        }

    page.save_draft(draft(text, note))
    for too_long in (draft(text + 1, note), draft(text, note + 1)):
        with pytest.raises(ChoicesError):
            page.save_draft(too_long)


def test_the_page_script_joins_every_part_once_in_one_strict_function() -> None:
    folder = resources.files(PACKAGE).joinpath("script")
    shipped = sorted(item.name for item in folder.iterdir() if item.name.endswith(".js"))
    assert sorted(SCRIPT_PARTS) == shipped
    script = page_script()
    assert script.startswith('"use strict";\n\n(() => {\n')
    assert script.endswith("})();\n")
    assert all(asset(f"script/{name}", PACKAGE) in script for name in SCRIPT_PARTS)
    for name in PAGE_PARTS:
        assert script.index(asset(name, WEB)) > script.index(
            asset("script/question.js", PACKAGE)
        ), "the page's own parts come after the question view's"


def test_no_two_parts_of_the_page_script_declare_the_same_name() -> None:
    """The parts share one scope: a second declaration of a name would silently replace the
    first (a function) or stop the whole script (a const)."""
    declared: Counter[str] = Counter()
    parts = [asset(f"script/{name}", PACKAGE) for name in SCRIPT_PARTS]
    parts += [asset(name, WEB) for name in PAGE_PARTS]
    for part in parts:
        top_level = r"^(?:async\s+)?(?:function|const|let|var|class)\s+(\w+)"
        declared.update(re.findall(top_level, part, flags=re.MULTILINE))
    assert "createForm" in declared
    assert [name for name, count in declared.items() if count > 1] == []


async def test_a_valid_draft_is_kept_for_a_reopened_tab() -> None:
    page = open_page()
    draft = {
        "selected_ids": ["e2e", "bench"],
        "custom_input": "",
        "option_annotations": {"e2e": "only the smoke suite"},
        "global_annotation": "quick please",
    }
    page.save_draft(draft)
    assert page.state()["draft"] == draft


@pytest.mark.parametrize(
    ("draft", "problem"),
    [
        ({"selected_ids": ["nope"]}, "selected_ids: 'nope' is not an option id"),
        ({"selected_ids": ["unit", "unit"]}, "selected_ids must not repeat an id"),
        ({"option_annotations": {"x": "a"}}, "option_annotations: 'x' is not an option id"),
        ({"custom_input": "x" * 10_001}, "custom_input must be at most 10000 characters"),
        ({"global_annotation": "x" * 2_001}, "global_annotation must be at most 2000 characters"),
        ({"selected_ids": "unit"}, "selected_ids"),
        ({"selected_ids": [1]}, "selected_ids[0]"),
        ({"colour": "red"}, "colour is not an allowed field"),
        ([], "request"),
    ],
)
async def test_an_invalid_draft_is_refused_and_the_old_one_kept(draft: Any, problem: str) -> None:
    page = open_page()
    with pytest.raises(ChoicesError) as error:
        page.save_draft(draft)
    assert any(text.startswith(problem) for text in problems_of(error)), problems_of(error)
    assert page.state()["draft"]["selected_ids"] == ["unit"]


async def test_changed_settings_apply_now_and_only_they_are_saved_over_the_file() -> None:
    page = open_page()
    # Another surface saved a setting since this question was asked.
    save_settings(InteractionSettings(timeout_action="return_nothing"))
    await page.change_settings({"annotations": False, "transport": "web"})
    assert page.state()["notes"] is False
    assert page.state()["settings"]["transport"] == "web"
    assert page.question.interaction.settings.annotations is False
    assert load_settings() == InteractionSettings(
        annotations=False, transport="web", timeout_action="return_nothing"
    )


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"colour": "red"}, "'colour' is not a setting; settings: transport, "),
        (
            {"transport": "pigeon"},
            "transport must be one of 'auto', 'terminal', 'web', 'elicitation', 'app', 'slack' or 'telegram'",
        ),
        ({"annotations": "yes"}, "annotations must be true or false, got 'yes'"),
        ({"timeout_override_seconds": 0}, "timeout_override_seconds must be at least 1, got 0"),
        (["annotations"], "settings must be an object of the settings to change"),
    ],
)
async def test_invalid_settings_are_refused_and_nothing_is_saved(
    change: Any, problem: str, home: Path
) -> None:
    page = open_page()
    with pytest.raises(ChoicesError) as error:
        await page.change_settings(change)
    assert any(text.startswith(problem) for text in problems_of(error)), problems_of(error)
    assert not (home / "settings.json").exists()
    assert page.settings == InteractionSettings()


async def test_a_timeout_override_extends_the_live_deadline_but_never_shortens_it() -> None:
    page = open_page(MULTI | {"timeout_seconds": 60})
    await page.change_settings({"timeout_override_seconds": 600})
    assert 599 < page.question.seconds_left() <= 600
    assert page.question.changed.is_set()  # the waiting call reports the new time at once
    await page.change_settings({"timeout_override_seconds": 10})
    assert page.question.seconds_left() > 590
    assert load_settings().timeout_override_seconds == 10


async def test_the_timeout_action_changed_on_the_page_is_what_the_deadline_returns() -> None:
    page = open_page(MULTI | {"timeout_seconds": 1})
    await page.change_settings({"timeout_action": "return_nothing"})
    assert await page.question.wait() == TimedOut(action="return_nothing")
    assert page.state()["status"] == "timeout"


async def test_hiding_options_unselects_them_and_must_leave_enough_to_answer() -> None:
    page = open_page()
    page.hide_options({"hidden_ids": ["unit", "bench"]})
    assert page.state()["hidden_ids"] == ["unit", "bench"]
    assert page.state()["draft"]["selected_ids"] == []
    with pytest.raises(ChoicesError) as error:
        page.hide_options({"hidden_ids": ["unit", "e2e", "bench"]})
    assert problems_of(error) == ["Keep at least 1 option visible"]
    with pytest.raises(ChoicesError) as error:
        page.hide_options({"hidden_ids": ["other"]})
    assert problems_of(error) == ["hidden_ids: 'other' is not an option id"]
    with pytest.raises(ChoicesError) as error:
        await page.answer({"kind": "answered", "selected_ids": ["unit"]})
    assert problems_of(error) == ["selected_ids: 'unit' is hidden"]


async def test_an_answer_outside_the_limits_is_refused_with_reasons_and_stays_pending() -> None:
    page = open_page()
    with pytest.raises(ChoicesError) as error:
        await page.answer({"kind": "answered", "selected_ids": ["unit", "e2e", "bench"]})
    assert problems_of(error) == ["selected_ids must hold 1 to 2 ids, got 3"]
    assert page.state()["status"] == "pending"
    await page.answer({"kind": "answered", "selected_ids": ["e2e"], "global_annotation": "ok"})
    assert await page.question.wait() == Answered(selected_ids=["e2e"], global_annotation="ok")
    assert page.state()["status"] == "answered"
    assert page.state()["summary"] == "Selected: Browser tests (with an overall note)."


@pytest.mark.parametrize(
    ("settings", "answer", "problem"),
    [
        (
            InteractionSettings(annotations=False),
            {"kind": "answered", "selected_ids": ["unit"], "global_annotation": "hi"},
            "notes are switched off in the settings",
        ),
        (
            InteractionSettings(placeholder_visible=False),
            {"kind": "answered", "custom_input": None, "placeholder_shown": True},
            "placeholder_shown is true but the suggested answer is hidden",
        ),
        (
            InteractionSettings(),
            {"kind": "timeout", "action": "return_nothing"},
            "kind must be 'answered' or 'cancelled', got 'timeout'",
        ),
    ],
)
async def test_an_answer_must_fit_what_the_page_offered(
    settings: InteractionSettings, answer: dict[str, Any], problem: str
) -> None:
    page = open_page(HYBRID if "custom_input" in answer else MULTI, settings)
    with pytest.raises(ChoicesError) as error:
        await page.answer(answer)
    assert problems_of(error) == [problem]


async def test_after_the_end_nothing_changes_the_question() -> None:
    page = open_page()
    await page.answer({"kind": "cancelled"})
    assert page.state()["status"] == "cancelled"
    with pytest.raises(QuestionEnded):
        await page.answer({"kind": "answered", "selected_ids": ["unit"]})
    for change in (
        lambda: page.save_draft({"selected_ids": []}),
        lambda: page.hide_options({"hidden_ids": []}),
    ):
        with pytest.raises(QuestionEnded):
            change()
    with pytest.raises(QuestionEnded):
        await page.change_settings({"annotations": False})
    assert page.question.outcome == Cancelled()


async def test_regression_the_agents_cancel_is_never_worded_as_the_persons() -> None:
    # The page said "Cancelled by the agent" over "Cancelled by the person; nothing selected".
    page = open_page()
    page.question.finish(Cancelled(by="agent"))
    state = page.state()
    assert state["status"] == "cancelled_by_agent"
    assert "by the agent" in state["summary"]
    assert "by the person" not in state["summary"]


async def test_updates_come_at_once_after_each_change_and_end_with_the_ending() -> None:
    page = open_page()
    received: list[dict[str, Any]] = []

    async def follow() -> None:
        async for state in page.updates(every_seconds=30):
            received.append(state)

    following = asyncio.create_task(follow())
    await asyncio.sleep(0.01)
    await page.change_settings({"annotations": False})
    await asyncio.sleep(0.01)
    await page.answer({"kind": "answered", "selected_ids": ["unit"]})
    await asyncio.wait_for(following, 1)
    assert [state["notes"] for state in received] == [True, False, False]
    assert [state["status"] for state in received] == ["pending", "pending", "answered"]


async def test_regression_a_change_made_on_another_surface_reaches_the_page_at_once() -> None:
    # A timeout override or a setting changed in the question's terminal (the same process) reached
    # its open page only at the page's next periodic state: its countdown said the old time.
    page = open_page()
    states = page.updates(every_seconds=30)
    first = await anext(states)
    await page.question.apply_settings({"timeout_override_seconds": 3600})  # as the terminal does
    second = await asyncio.wait_for(anext(states), 1)
    assert second["seconds_left"] > first["seconds_left"] + 3000
    await page.question.apply_settings({"annotations": False})
    third = await asyncio.wait_for(anext(states), 1)
    assert (first["notes"], third["notes"]) == (True, False)
    await states.aclose()


async def test_regression_a_page_hears_of_its_settings_once_they_are_in_the_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The page says "Saved." when a state with the change arrives: one came before the file was
    # written, and a reader of the file right after found the old value.
    def slow_save(changed: dict[str, Any]) -> None:
        time.sleep(0.2)
        save_changes(changed)

    monkeypatch.setattr(_pending, "save_changes", slow_save)
    page = open_page()
    states = page.updates(every_seconds=30)
    await anext(states)
    changing = asyncio.create_task(page.change_settings({"notify_detail": "title_only"}))
    second = await asyncio.wait_for(anext(states), 2)
    assert second["settings"]["notify_detail"] == "title_only"
    assert load_settings().notify_detail == "title_only"
    await changing
    await states.aclose()


async def test_updates_resend_the_time_left_without_changes() -> None:
    page = open_page()
    started = time.monotonic()
    states = page.updates(every_seconds=0.05)
    first = await anext(states)
    second = await anext(states)
    assert time.monotonic() - started >= 0.05
    assert second["seconds_left"] <= first["seconds_left"]
    await states.aclose()


async def test_agent_text_cannot_break_out_of_the_page() -> None:
    request = MULTI | {
        "title": "<b>Title</b>",
        "prompt": "**bold** <img src=x onerror=alert(1)> </script><script>alert(2)</script>",
        "options": [
            {"id": "a", "label": "</script><script>alert(3)</script>", "recommended": True},
            {"id": "b", "label": "<img src=x onerror=alert(1)>"},
        ],
        "default_selection_ids": [],
    }
    html = page_html(open_page(request), [])
    assert '<h1 id="question-title">&lt;b&gt;Title&lt;/b&gt;</h1>' in html
    assert "<strong>bold</strong> &lt;img src=x onerror=alert(1)&gt;" in html
    assert len(re.findall(r"<script", html)) == 3  # the state, the words and the page's script
    assert "<img" not in html
    state = re.search(r'<script type="application/json" id="question-state">(.*?)</script>', html)
    assert state is not None
    assert json.loads(state.group(1))["options"][0]["label"] == "</script><script>alert(3)</script>"


async def test_a_page_goes_when_the_registry_drops_its_question() -> None:
    registry = QuestionRegistry(retention_seconds=0.01)
    pages = QuestionPages(registry, "web")
    interaction = Interaction.start(parse_request(MULTI), InteractionSettings())
    page = pages.open(registry.create(interaction, "web"))
    assert pages.get(page.question.id) is page
    await page.answer({"kind": "cancelled"})
    assert pages.get(page.question.id) is page, "an ended question still shows how it ended"
    await asyncio.sleep(0.05)
    assert pages.get(page.question.id) is None


# A batch ------------------------------------------------------------------------------------------

BATCH = {
    "title": "Project set-up",
    "questions": [
        {"id": "checks", "header": "Checks"}
        | {key: MULTI[key] for key in ("prompt", "selection_mode", "options")},
        {
            "id": "name",
            "prompt": "What should the *service* be called?",
            "selection_mode": "text_input",
        },
    ],
}


def open_batch(request: dict[str, Any] | None = None) -> QuestionPage:
    batch = parse_call(request or BATCH)
    assert isinstance(batch, BatchRequest)
    registry = QuestionRegistry()
    return QuestionPages(registry, "web").open(
        registry.create(Interaction.start(batch, InteractionSettings()), "web")
    )


async def test_regression_a_headerless_question_is_named_by_its_id_as_the_summary_names_it() -> (
    None
):
    """The page called it "Question 2" ("Question 2: Type an answer to submit.") while the summary
    the agent reads, the terminal's review and the dialog's field title say "name"."""
    page = open_batch()
    second = page.state()["questions"][1]
    batch = page.question.interaction.asked
    assert isinstance(batch, BatchRequest)
    assert second["name"] == batch.questions[1].name == "name"


async def test_a_batchs_state_holds_each_question_with_its_own_rules() -> None:
    state = open_batch().state()
    first, second = state["questions"]
    assert (first["id"], first["header"], first["name"], first["prefix"]) == (
        "checks",
        "Checks",
        "Checks",
        "q1-",
    )
    assert second["prefix"] == "q2-"
    assert second["prompt_html"] == "<p>What should the <em>service</em> be called?</p>\n"
    assert first["mode"] == "multi"
    assert first["options"][0]["preview_html"] is None
    assert state["mode"] == "batch"
    assert state["draft"] == {
        "answers": {
            "checks": {
                "selected_ids": [],
                "custom_input": "",
                "option_annotations": {},
                "global_annotation": "",
            },
            "name": {
                "selected_ids": [],
                "custom_input": "",
                "option_annotations": {},
                "global_annotation": "",
            },
        },
        "global_annotation": "",
    }


async def test_a_one_question_batch_submits_on_the_pick_and_a_longer_one_never_does() -> None:
    single = {
        "id": "db",
        "prompt": "Which?",
        "selection_mode": "single",
        "options": MULTI["options"],
    }
    alone = open_batch({"title": "One", "questions": [single]}).state()
    assert alone["questions"][0]["submits_on_selection"] is True
    assert alone["mode"] == "single"
    several = open_batch({"title": "Two", "questions": [single, single | {"id": "cache"}]}).state()
    assert [question["submits_on_selection"] for question in several["questions"]] == [False, False]
    assert several["questions"][0]["instruction"] == "Choose one."


async def test_a_batchs_draft_and_answer_list_every_problem_by_question() -> None:
    page = open_batch()
    draft = {"answers": {"checks": {"selected_ids": ["nope"]}, "other": {}}}
    with pytest.raises(ChoicesError) as raised:
        page.save_draft(draft)
    assert problems_of(raised) == [
        "other: is not a question of this batch",
        "checks: selected_ids: 'nope' is not an option id",
        "name: its draft is missing",
    ]
    with pytest.raises(ChoicesError, match="the options of a batch's questions cannot be hidden"):
        page.hide_options({"hidden_ids": []})
    with pytest.raises(ChoicesError) as raised:
        await page.answer({"kind": "answered_batch", "answers": {"checks": {"selected_ids": []}}})
    assert problems_of(raised) == [
        "checks: selected_ids must hold 1 to 3 ids, got 0",
        "name: not answered",
    ]
    assert page.question.outcome is None


async def test_a_batchs_answers_are_kept_once_the_person_changes_them() -> None:
    page = open_batch()
    untouched = page.state()["draft"]
    page.save_draft(untouched)
    assert page.question.kept == {}
    page.save_draft(
        untouched | {"answers": untouched["answers"] | {"name": {"custom_input": "orders"}}}
    )
    assert page.question.kept == {"name": Answered(custom_input="orders")}
    await page.answer({"kind": "cancelled"})
    assert page.ending == "cancelled"
    assert page.state()["summary"] == (
        "Cancelled by the person after 1 of 2 questions. Checks: Not answered; no defaults to "
        'return, nothing selected. name: Answered in their own words: "orders".'
    )


async def test_the_state_is_in_the_persons_language_and_names_it() -> None:
    chinese = open_page().state(["fr-FR", "zh-CN"])
    assert chinese["language"] == "zh-Hans"
    assert chinese["instruction"] == "请选择 1 到 2 项。"
    assert chinese["refusals"]["options_only"][0] == "请选择 1 到 2 项（已选 0 项）"
    assert chinese["setting_choices"]["language"]["label"] == "语言"
    assert ["zh-Hans", "中文 (简体)"] in chinese["setting_choices"]["language"]["choices"]
    assert open_page().state(["fr-FR"])["language"] == "en"
    english = open_page(settings=InteractionSettings(language="en")).state(["zh-CN"])
    assert (english["language"], english["instruction"]) == ("en", "Choose 1 to 2 options.")
    own = open_page(settings=InteractionSettings(language="pt-BR")).state(["zh-CN"])
    assert own["language"] == "en"  # no catalog yet: English, and the panel still shows the tag
    assert ["pt-BR", "pt-BR"] in own["setting_choices"]["language"]["choices"]


async def test_a_batch_says_how_many_questions_in_the_persons_language() -> None:
    assert open_batch().state(["zh"])["intro_html"] == "<p>2 个问题：逐一回答，然后一起提交。</p>"

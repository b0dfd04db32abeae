"""`ChoiceGroup`: a labelled group of native buttons that answers once and then stays readable."""

import pytest
from nicegui import ui
from nicegui.testing import User

from chat_ui import BlockState, ChoiceGroup, block_state
from present_choices import ChoicePrompt

pytestmark = pytest.mark.nicegui_main_file("")

PROMPT = ChoicePrompt.model_validate(
    {
        "question": "Deploy now?",
        "context": "All tests passed.",
        "options": [
            {"label": "Yes", "value": "deploy"},
            {"label": "<img src=x onerror=alert(1)>", "value": "wait"},
        ],
    }
)


def attributes(group: ChoiceGroup) -> list[tuple[str, str, str]]:
    return [
        (button.text, button.props["aria-pressed"], button.props["aria-disabled"])
        for button in group.buttons
    ]


async def open_group(user: User, **options: object) -> tuple[ChoiceGroup, list[str]]:
    chosen: list[str] = []
    groups: list[ChoiceGroup] = []

    @ui.page("/")
    def page() -> None:
        groups.append(ChoiceGroup(PROMPT, on_select=chosen.append, **options))  # type: ignore[arg-type]

    await user.open("/")
    return groups[0], chosen


async def test_group_is_named_by_its_question_and_described_by_its_context(user: User) -> None:
    group, _ = await open_group(user)
    await user.should_see("Deploy now?")
    await user.should_see("All tests passed.")
    question, context, _options = group.default_slot.children
    assert group.props["role"] == "group"
    assert group.props["aria-labelledby"] == question.html_id
    assert group.props["aria-describedby"] == context.html_id
    assert [button.tag for button in group.buttons] == ["button", "button"]
    assert attributes(group) == [
        ("Yes", "false", "false"),
        ("<img src=x onerror=alert(1)>", "false", "false"),
    ]


async def test_a_click_sends_the_value_and_the_owner_s_answer_locks_it_with_the_pick_pressed(
    user: User,
) -> None:
    group, chosen = await open_group(user)
    group.classes("app-class")
    user.find("Yes").click()
    assert chosen == ["deploy"]
    assert group.state == BlockState("pending"), "a click reports the pick and decides nothing"
    group.set_state(block_state(PROMPT, chosen[-1]))  # what the chat does once it keeps the pick
    assert group.state == BlockState("answered", "deploy")
    assert group.classes == ["choice-group", "app-class", "choice-group--answered"]
    assert attributes(group) == [
        ("Yes", "true", "true"),
        ("<img src=x onerror=alert(1)>", "false", "true"),
    ]
    user.find("<img src=x onerror=alert(1)>").click()
    user.find("Yes").click()
    assert chosen == ["deploy"]


async def test_a_locked_block_ignores_clicks_until_unlocked(user: User) -> None:
    group, chosen = await open_group(user, locked=True)
    assert all(disabled == "true" for _, _, disabled in attributes(group))
    user.find("Yes").click()
    assert chosen == []
    group.set_state(group.state, locked=False)
    user.find("Yes").click()
    assert chosen == ["deploy"]


async def test_an_outdated_block_keeps_no_highlight_and_ignores_clicks(user: User) -> None:
    group, chosen = await open_group(user, state=BlockState("outdated"))
    assert attributes(group) == [
        ("Yes", "false", "true"),
        ("<img src=x onerror=alert(1)>", "false", "true"),
    ]
    user.find("Yes").click()
    assert chosen == []

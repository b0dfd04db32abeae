"""`ChoicesMarkdown`: markdown, button groups, code blocks and placeholders, updated in place."""

from typing import get_args

import pytest
from nicegui import ui
from nicegui.testing import User

from chat_ui import BlockState, ChoiceGroup, ChoicesMarkdown
from chat_ui._nicegui._choices_markdown import _RENDERERS
from present_choices import ChoicePrompt, Segment, render_fence

pytestmark = pytest.mark.nicegui_main_file("")


def prompt_of(question: str, *values: str) -> ChoicePrompt:
    options = [{"label": value.title(), "value": value} for value in values]
    return ChoicePrompt.model_validate({"question": question, "options": options})


def fence(question: str, *values: str) -> str:
    return render_fence(prompt_of(question, *values))


COLOUR = fence("Colour?", "red", "blue")
SIZE = fence("Size?", "small", "large")


async def show(user: User, content: str, **options: object) -> tuple[ChoicesMarkdown, list[str]]:
    chosen: list[str] = []
    shown: list[ChoicesMarkdown] = []

    @ui.page("/")
    def page() -> None:
        shown.append(ChoicesMarkdown(content, on_choice=chosen.append, **options))  # type: ignore[arg-type]

    await user.open("/")
    return shown[0], chosen


def html_of(message: ChoicesMarkdown) -> str:
    return "".join(child.content for child in message if isinstance(child, ui.html))


def test_every_segment_kind_has_a_renderer() -> None:
    kinds = {
        segment_type.__dataclass_fields__["kind"].default for segment_type in get_args(Segment)
    }
    assert kinds == set(_RENDERERS)


async def test_markdown_and_blocks_render_in_order(user: User) -> None:
    message, chosen = await show(user, f"**Pick** one:\n\n{COLOUR}\n\nThen:\n\n{SIZE}")
    kinds = [type(child).__name__ for child in message.default_slot.children]
    assert kinds == ["Html", "ChoiceGroup", "Html", "ChoiceGroup"]
    assert "<strong>Pick</strong>" in html_of(message)
    user.find("Red").click()
    assert chosen == ["red"]


async def test_a_pick_is_reported_and_the_answer_makes_the_other_blocks_of_the_message_outdated(
    user: User,
) -> None:
    message, chosen = await show(user, f"{COLOUR}\n\n{SIZE}")
    user.find("Blue").click()
    assert chosen == ["blue"]
    assert [group.state for group in message.groups] == [BlockState("pending")] * 2
    message.set_answer(chosen[-1])  # what the chat does once it keeps the pick
    assert [group.state for group in message.groups] == [
        BlockState("answered", "blue"),
        BlockState("outdated"),
    ]


async def test_a_malformed_block_is_shown_as_its_code_block_without_an_error(user: User) -> None:
    message, _ = await show(user, 'Here:\n\n```choices\n{"question": "Q?", "options": []}\n```')
    assert message.groups == []
    html = html_of(message)
    assert '<code class="language-choices">{&quot;question&quot;: &quot;Q?&quot;' in html
    await user.should_not_see("error")
    await user.should_not_see("invalid")


async def test_code_blocks_and_tables_take_focus_so_a_keyboard_can_scroll_them(
    user: User,
) -> None:
    text = "```python\nprint('x' * 300)\n```\n\n| a |\n|---|\n| 1 |\n\n`<pre>` and <table>"
    message, _ = await show(user, f"{text}\n\n```choices\nnot json\n```")
    html = html_of(message)
    assert html.count('<pre tabindex="0">') == 2  # the code block and the malformed block
    assert html.count('<table tabindex="0">') == 1
    assert "&lt;pre&gt;" in html  # agent text stays text
    assert "&lt;table&gt;" in html


async def test_an_unclosed_block_while_streaming_is_a_placeholder_never_json(user: User) -> None:
    message, _ = await show(user, f"Pick:\n\n{COLOUR[:40]}", streaming=True)
    await user.should_see("preparing choices...")
    assert "question" not in html_of(message)
    message.set_content(f"Pick:\n\n{COLOUR}", streaming=True)
    await user.should_not_see("preparing choices...")
    assert len(message.groups) == 1


async def test_an_unclosed_block_in_a_finished_message_stays_a_placeholder(user: User) -> None:
    message, _ = await show(user, f"Pick:\n\n{COLOUR[:40]}", streaming=True)
    message.set_content(message.content, streaming=False)
    await user.should_see("preparing choices...")
    assert "question" not in html_of(message)


async def test_blocks_of_a_streaming_message_unlock_when_it_is_complete(user: User) -> None:
    message, chosen = await show(user, COLOUR, streaming=True)
    user.find("Red").click()
    assert chosen == []
    message.set_content(COLOUR, streaming=False)
    user.find("Red").click()
    assert chosen == ["red"]


async def test_streaming_more_text_keeps_the_elements_already_shown(user: User) -> None:
    message, _ = await show(user, f"Intro\n\n{COLOUR}\n\nMore", streaming=True)
    intro, group, tail = message.default_slot.children
    message.set_content(f"Intro\n\n{COLOUR}\n\nMore text, and more", streaming=True)
    assert message.default_slot.children == [intro, group, tail]
    assert "More text, and more" in tail.content  # type: ignore[attr-defined]
    assert isinstance(group, ChoiceGroup)


async def test_set_answer_decides_every_block(user: User) -> None:
    message, _ = await show(user, f"{COLOUR}\n\n{SIZE}")
    message.set_answer("large")
    assert [group.state for group in message.groups] == [
        BlockState("outdated"),
        BlockState("answered", "large"),
    ]


async def test_a_block_asked_by_a_call_shows_after_the_text_even_one_that_left_a_fence_open(
    user: User,
) -> None:
    asked = prompt_of("Go ahead?", "run", "wait")
    message, chosen = await show(user, "Here:\n\n```python\nprint(1)", asked=asked)
    assert [type(child).__name__ for child in message.default_slot.children] == [
        "Html",
        "ChoiceGroup",
    ]
    assert "print(1)" in html_of(message)
    assert "Go ahead?" not in html_of(message)  # the block is data, never fence text
    user.find("Run").click()
    assert chosen == ["run"]


async def test_a_call_on_its_way_is_a_placeholder_until_its_block_arrives(user: User) -> None:
    message, _ = await show(user, "Let me ask.", streaming=True)
    message.set_content("Let me ask.", preparing=True, streaming=True)
    await user.should_see("preparing choices...")
    intro = message.default_slot.children[0]
    message.set_content("Let me ask.", asked=prompt_of("Colour?", "red", "blue"), streaming=True)
    await user.should_not_see("preparing choices...")
    assert message.default_slot.children[0] is intro
    assert len(message.groups) == 1

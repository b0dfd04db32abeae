"""`chat_page`: the conversation lives in the browser's storage, so a reload shows it again."""

import asyncio
from collections.abc import AsyncIterator, Sequence

import pytest
from nicegui import ui
from nicegui.testing import User

from chat_ui import BlockState, ChatView, Message, ScriptAgent, chat_page
from present_choices import ChoicePrompt, render_fence

pytestmark = pytest.mark.nicegui_main_file("")

COLOUR = render_fence(
    ChoicePrompt.model_validate(
        {
            "question": "Colour?",
            "options": [{"label": "Red", "value": "red"}, {"label": "Blue", "value": "blue"}],
        }
    )
)


def serve_chat() -> list[object]:
    views: list[object] = []

    @ui.page("/")
    def page() -> None:
        views.append(chat_page(ScriptAgent([f"Hello!\n\n{COLOUR}", "You chose {{user}}."])))

    return views


async def test_a_reload_shows_the_same_conversation_and_block_states(user: User) -> None:
    views = serve_chat()
    await user.open("/")
    await user.should_see("Red")
    user.find("Red").click()
    await user.should_see("You chose red.")
    await user.open("/")
    reloaded = views[-1]
    assert [m["content"] for m in reloaded.history] == [  # type: ignore[attr-defined]
        f"Hello!\n\n{COLOUR}",
        "red",
        "You chose red.",
    ]
    (group,) = [g for m in reloaded.log if hasattr(m, "body") for g in m.body.groups]  # type: ignore[attr-defined]
    assert group.state == BlockState("answered", "red")
    await user.should_see("You chose red.")


async def test_new_chat_starts_over_with_the_greeting(user: User) -> None:
    views = serve_chat()
    await user.open("/")
    await user.should_see("Red")
    user.find("Red").click()
    await user.should_see("You chose red.")
    user.find("New chat").click()  # clears the history and reloads the page
    await user.should_not_see("You chose red.")
    await user.should_see("Hello!")
    assert len(views) == 2
    assert len(views[-1].history) == 1  # type: ignore[attr-defined]


class SlowAgent:
    """Greets at once; a reply to a message starts at once and ends when the test opens `gate`."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        if not history:
            yield "Hello!"
            return
        yield "Thinking it over"
        await self.gate.wait()
        yield ", and done."


async def test_new_chat_during_a_reply_stops_it_and_nothing_of_it_lands_in_the_new_chat(
    user: User,
) -> None:
    agent = SlowAgent()
    views: list[ChatView] = []

    @ui.page("/")
    def page() -> None:
        views.append(chat_page(agent))

    await user.open("/")
    await user.should_see("Hello!")
    user.find(ui.textarea).type("a long question")
    user.find("Send").click()
    await user.should_see("Thinking it over")
    user.find("New chat").click()
    await user.should_see("Hello!")
    agent.gate.set()
    await asyncio.sleep(0.2)
    assert views[-1].history == [{"role": "assistant", "content": "Hello!"}]
    await user.should_not_see("Thinking it over")
    assert not views[0].busy

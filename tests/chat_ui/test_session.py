"""`ChatSession` driven by a front end that is plain Python, as a Gradio or Streamlit adapter drives
it: the session decides what there is to draw (messages, blocks, the reply as it streams, busy, its
notices), the front end only records it. No NiceGUI here."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from waiting import until

from chat_ui import BlockState, Message, ScriptAgent, block_state
from chat_ui._model import BlockUpdate, ReplyDraft, asked_prompt
from chat_ui._session import ChatSession, ReplyView
from chat_ui._stores import ListStore
from present_choices import ChoicePrompt, ChoicesSegment, render_fence, split_message
from present_choices._translation import negotiate

COLOUR = render_fence(
    ChoicePrompt.model_validate(
        {
            "question": "Colour?",
            "options": [{"label": "Red", "value": "red"}, {"label": "Blue", "value": "blue"}],
        }
    )
)
SCRIPT = ScriptAgent([f"Hi!\n\n{COLOUR}", f"Got {{{{user}}}}.\n\n{COLOUR}", "Bye {{user}}."])
ENGLISH = negotiate(["en"])


class Reply:
    """One reply as the recording front end shows it."""

    def __init__(self, shown: RecordingFrontend) -> None:
        self.shown = shown
        self.drafts: list[str] = []

    def show(self, draft: ReplyDraft) -> None:
        self.drafts.append(draft.text())

    def finish(self, message: Message, blocks: BlockUpdate) -> None:
        self.shown.rows.append(f"assistant: {message['content']}")
        self.shown.blocks[blocks.index] = (message, blocks.answer)

    def discard(self) -> None:
        self.shown.discarded += 1


class RecordingFrontend:
    """A front end that keeps what it was told to draw, in order."""

    def __init__(self) -> None:
        self.rows: list[str] = []
        self.blocks: dict[int, tuple[Message, str | None]] = {}
        self.replies: list[Reply] = []
        self.busy: list[bool] = []
        self.notices: list[str | None] = []
        self.discarded = 0

    def show_message(self, message: Message, blocks: BlockUpdate | None) -> None:
        self.rows.append(f"{message['role']}: {message['content']}")
        if blocks is not None:
            self.blocks[blocks.index] = (message, blocks.answer)

    def show_blocks(self, blocks: BlockUpdate) -> None:
        message, _ = self.blocks[blocks.index]
        self.blocks[blocks.index] = (message, blocks.answer)

    def start_reply(self) -> ReplyView:
        self.replies.append(Reply(self))
        return self.replies[-1]

    def clear_messages(self) -> None:
        self.rows.clear()
        self.blocks.clear()

    def set_busy(self, busy: bool) -> None:
        self.busy.append(busy)

    def set_available(self, available: bool) -> None:
        pass

    def show_notice(self, text: str | None, *, waiting: bool = False) -> None:
        self.notices.append(text)

    def forget_typed(self, text: str) -> None:
        pass

    def states(self) -> list[BlockState]:
        """What each choices block drawn shows, as `block_state` decides it from the answer given."""
        return [
            block_state(prompt, answer)
            for _, (message, answer) in sorted(self.blocks.items())
            for prompt in prompts(message)
        ]


def prompts(message: Message) -> list[ChoicePrompt]:
    """The choices blocks of `message`: the fences in its text, and the one it asked with a call."""
    fenced = [
        segment.prompt
        for segment in split_message(message["content"])
        if isinstance(segment, ChoicesSegment)
    ]
    asked = asked_prompt(message)
    return fenced + ([asked] if asked else [])


async def started(agent: object, **where: object) -> tuple[ChatSession, RecordingFrontend]:
    frontend = RecordingFrontend()
    session = ChatSession(agent, frontend, translation=ENGLISH, **where)  # type: ignore[arg-type]
    session.start()
    await until(lambda: session.loaded and not session.busy, "the conversation is shown")
    return session, frontend


async def test_a_session_greets_then_a_pick_answers_its_block() -> None:
    session, frontend = await started(SCRIPT)
    assert session.history == [{"role": "assistant", "content": f"Hi!\n\n{COLOUR}"}]
    assert frontend.states() == [BlockState("pending")]
    session.pick("red")
    await until(lambda: not session.busy, "the reply is done")
    assert frontend.rows[1:] == ["user: red", f"assistant: Got red.\n\n{COLOUR}"]
    assert frontend.states() == [BlockState("answered", "red"), BlockState("pending")]
    await session.send("green, actually")
    assert frontend.states() == [BlockState("answered", "red"), BlockState("outdated")]
    assert frontend.busy == [True, False] * 3


class BurstAgent:
    """Replies in many small chunks at once: the front end is asked to show far fewer drafts."""

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        for index in range(500):
            yield f"w{index} "
            if index % 50 == 0:
                await asyncio.sleep(0)


async def test_a_streaming_reply_is_shown_throttled_and_finished_once() -> None:
    _, frontend = await started(BurstAgent())
    (reply,) = frontend.replies
    assert len(reply.drafts) < 10, "shown at most every RENDER_INTERVAL, not per chunk"
    assert frontend.rows == ["assistant: " + "".join(f"w{index} " for index in range(500))]


class FailingAgent:
    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        yield "half a reply"
        raise RuntimeError("the model went away")


async def test_a_failed_reply_shows_nothing_of_itself_and_a_notice() -> None:
    session, frontend = await started(FailingAgent())
    assert frontend.discarded == 1
    assert session.history == [
        {
            "role": "error",
            "content": "The agent could not reply (RuntimeError: the model went away). Send your "
            "message again to retry.",
        }
    ]


async def test_a_conversation_in_a_store_is_read_then_saved_message_by_message() -> None:
    kept: list[Message] = [{"role": "assistant", "content": f"Hi!\n\n{COLOUR}"}]
    session, frontend = await started(SCRIPT, store=ListStore(kept))
    assert frontend.rows == [f"assistant: Hi!\n\n{COLOUR}"], "no second greeting"
    await session.send("blue")
    await until(lambda: len(kept) == 3, "the reply is saved")
    assert kept == list(session.history)
    assert frontend.states() == [BlockState("answered", "blue"), BlockState("pending")]

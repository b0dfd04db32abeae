"""An assistant message: markdown with each ```choices fence shown as a button group.

This is the element other NiceGUI apps embed: give it the agent's text and a callback that receives
the chosen option's value. Segments come from `present_choices.split_message`, and each segment kind
has one renderer in `_RENDERERS`, so a new fence kind is one more entry. A block the agent asked with
a tool call comes as data (`asked`), never as fence text, and is shown after the text.

The element shows states; it does not decide them. Every block's state follows from `answer`, the
user message that followed this one, which the owner of the conversation gives (in a `ChatView`,
its `ChatSession` derives it from the history): a click only reports the pick to `on_choice`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from nicegui import ui

from chat_ui._model._conversation import block_state
from chat_ui._nicegui._choice_group import ChoiceGroup, SelectHandler
from chat_ui._nicegui._language import chat_words
from chat_ui._nicegui._styles import ensure_styles
from present_choices import (
    ChoicePrompt,
    ChoicesSegment,
    IncompleteSegment,
    MalformedSegment,
    MarkdownSegment,
    Segment,
    render_markdown,
    split_message,
)
from present_choices._translation import N_

PREPARING_TEXT = N_("preparing choices...")


class ChoicesMarkdown(ui.element):
    """Renders `content`, then the block `asked` (if any); a click on an option calls `on_choice`
    with the option's value.

    `answer` is the first user message that followed this message (None while none has): it decides
    each block's state, see `block_state`; `set_answer` changes it. An unclosed fence shows a quiet
    placeholder instead of half-written JSON. `streaming` means the agent is still writing: blocks
    cannot be answered until the message is complete. Updating content re-renders only the segments
    that changed.
    """

    def __init__(
        self,
        content: str = "",
        *,
        asked: ChoicePrompt | None = None,
        on_choice: SelectHandler | None = None,
        answer: str | None = None,
        streaming: bool = False,
    ) -> None:
        super().__init__("div")
        ensure_styles()
        self.classes("choices-markdown")
        self.content = ""
        self.asked: ChoicePrompt | None = None
        self.answer = answer
        self.streaming = streaming
        self._on_choice = on_choice
        self._rendered: list[tuple[Segment, ui.element]] = []
        self.set_content(content, asked=asked, streaming=streaming)

    @property
    def groups(self) -> list[ChoiceGroup]:
        return [element for _, element in self._rendered if isinstance(element, ChoiceGroup)]

    def set_content(
        self,
        content: str,
        *,
        asked: ChoicePrompt | None = None,
        preparing: bool = False,
        streaming: bool = False,
    ) -> None:
        """Show new content (and the block `asked`, or with `preparing` the placeholder of a block
        still on its way), keeping the elements of every leading segment that did not change."""
        lock_changed = streaming != self.streaming
        self.content, self.asked, self.streaming = content, asked, streaming
        segments = split_message(content)
        if asked is not None:
            segments.append(ChoicesSegment(asked, raw=""))
        elif preparing:
            segments.append(IncompleteSegment(raw=""))
        kept = 0
        while (
            kept < min(len(segments), len(self._rendered))
            and self._rendered[kept][0] == segments[kept]
        ):
            kept += 1
        if self._grow_markdown_in_place(kept, segments):
            kept += 1
        for _, element in self._rendered[kept:]:
            element.delete()
        del self._rendered[kept:]
        with self:
            for segment in segments[kept:]:
                self._rendered.append((segment, _RENDERERS[segment.kind](self, segment)))
        if lock_changed:
            for group in self.groups:
                group.set_state(group.state, locked=streaming)

    def set_answer(self, answer: str | None) -> None:
        """Show the blocks as `answer`, the user message that followed this one, decides them."""
        self.answer = answer
        for group in self.groups:
            group.set_state(block_state(group.prompt, answer))

    def _grow_markdown_in_place(self, index: int, segments: list[Segment]) -> bool:
        """Update the markdown element at `index` to its new text, if both old and new are markdown.

        While streaming, the last markdown segment grows chunk by chunk: updating its HTML rather
        than replacing the element keeps the browser from flickering.
        """
        if index >= min(len(segments), len(self._rendered)):
            return False
        old_segment, element = self._rendered[index]
        new_segment = segments[index]
        if not (
            isinstance(old_segment, MarkdownSegment) and isinstance(new_segment, MarkdownSegment)
        ):
            return False
        assert isinstance(element, ui.html)
        element.set_content(render_markdown(new_segment.text))
        self._rendered[index] = (new_segment, element)
        return True

    def _choose(self, value: str) -> Awaitable[None] | None:
        return self._on_choice(value) if self._on_choice else None

    def _markdown_segment(self, segment: MarkdownSegment) -> ui.element:
        # DOMPurify (sanitize=True) runs in the browser as a second line of defence behind
        # markdown-it's escaping.
        return ui.html(render_markdown(segment.text), sanitize=True).classes("chat-markdown")

    def _choices_segment(self, segment: ChoicesSegment) -> ui.element:
        return ChoiceGroup(
            segment.prompt,
            on_select=self._choose,
            state=block_state(segment.prompt, self.answer),
            locked=self.streaming,
        )

    def _malformed_segment(self, segment: MalformedSegment) -> ui.element:
        """The fence as the code block it is, without an error: the agent's text is still shown."""
        return ui.html(render_markdown(segment.raw), sanitize=True).classes("chat-markdown")

    def _incomplete_segment(self, segment: IncompleteSegment) -> ui.element:
        """A quiet placeholder for a fence still being written: half-written JSON is never shown."""
        placeholder = ui.label(chat_words().gettext(PREPARING_TEXT)).classes("choices-preparing")
        placeholder.props["role"] = "status"
        return placeholder


# Keyed by `Segment.kind`; each renderer receives the segment class of that kind.
_RENDERERS: Mapping[str, Callable[[ChoicesMarkdown, Any], ui.element]] = {
    "markdown": ChoicesMarkdown._markdown_segment,
    "choices": ChoicesMarkdown._choices_segment,
    "malformed": ChoicesMarkdown._malformed_segment,
    "incomplete": ChoicesMarkdown._incomplete_segment,
}

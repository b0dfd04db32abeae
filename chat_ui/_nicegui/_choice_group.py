"""A choices block as a labelled group of native buttons.

Native `<button>`s give Tab order, Enter and Space for free. Quasar's buttons are not used because
disabling them removes them from the Tab order; here a block that can no longer be answered marks its
buttons `aria-disabled` instead, so a screen-reader user can still reach them and hear what was chosen.
Question, context and labels are text nodes, never HTML: agent text cannot inject markup.

A group shows the state it is given and reports a click; it never sets its own state (nor does the
browser): the owner of the conversation decides what a pick means, and `ChatView` shows it once the
history holds it. Clicks on a block that does not accept a selection are ignored on the server. That
is also what keeps a double click to one message in the chat: `ChatView` keeps the first click's
message, and so shows its block answered, before it handles the second click.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial

from nicegui import ui
from nicegui.elements.mixins.text_element import TextElement

from chat_ui._model._conversation import PENDING, BlockState
from chat_ui._nicegui._styles import ensure_styles
from present_choices import ChoiceOption, ChoicePrompt

SelectHandler = Callable[[str], Awaitable[None] | None]
_STATE_CLASSES = (
    "choice-group--pending choice-group--answered choice-group--outdated choice-group--locked"
)


class ChoiceButton(TextElement):
    """A native button whose text (and so its accessible name) is `label`; it shows whether it was
    chosen (`aria-pressed`) and whether it can still be (`aria-disabled`, staying in the Tab order)."""

    def __init__(self, label: str, on_click: Callable[[], Awaitable[None] | None]) -> None:
        super().__init__(tag="button", text=label)
        self.classes("choice-option")
        self.props.update({"type": "button", "aria-pressed": "false", "aria-disabled": "false"})
        self.on("click", on_click)

    def show(self, *, pressed: bool, disabled: bool) -> None:
        self.props.update(
            {"aria-pressed": str(pressed).lower(), "aria-disabled": str(disabled).lower()}
        )


class OptionButton(ChoiceButton):
    """One option of a choices block, labelled by the option's label."""

    def __init__(
        self, option: ChoiceOption, on_click: Callable[[], Awaitable[None] | None]
    ) -> None:
        super().__init__(option.label, on_click)
        self.option = option


class ChoiceGroup(ui.element):
    """A question, its optional context, and one button per option, inside `role="group"`.

    `locked` keeps a pending block from being answered while its message is still streaming: the
    agent has not finished its turn yet.
    """

    def __init__(
        self,
        prompt: ChoicePrompt,
        *,
        on_select: SelectHandler,
        state: BlockState = PENDING,
        locked: bool = False,
    ) -> None:
        super().__init__("div")
        ensure_styles()
        self.prompt = prompt
        self._on_select = on_select
        self.classes("choice-group")
        with self:
            question = ui.label(prompt.question).classes("choice-question")
            self.props.update({"role": "group", "aria-labelledby": question.html_id})
            if prompt.context:
                context = ui.label(prompt.context).classes("choice-context")
                self.props["aria-describedby"] = context.html_id
            with ui.element("div").classes("choice-options"):
                self.buttons = [
                    OptionButton(option, partial(self._select, option.value))
                    for option in prompt.options
                ]
        self.state = state
        self.locked = locked
        self._show()

    @property
    def accepts_selection(self) -> bool:
        return self.state.status == "pending" and not self.locked

    def set_state(self, state: BlockState, *, locked: bool | None = None) -> None:
        """Show `state`; only blocks whose state really changed send an update to the browser."""
        locked = self.locked if locked is None else locked
        if (state, locked) == (self.state, self.locked):
            return
        self.state, self.locked = state, locked
        self._show()

    def _show(self) -> None:
        disabled = not self.accepts_selection
        for button in self.buttons:
            button.show(pressed=button.option.value == self.state.chosen, disabled=disabled)
        shown = f"choice-group--{self.state.status}" + (
            " choice-group--locked" if self.locked else ""
        )
        self.classes(add=shown, remove=_STATE_CLASSES)  # keeps any classes the app added

    def _select(self, value: str) -> Awaitable[None] | None:
        return self._on_select(value) if self.accepts_selection else None

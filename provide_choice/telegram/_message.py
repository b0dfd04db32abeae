"""What one question looks like in the chat: its message's text (Telegram HTML) and its buttons.

The text: the title in bold (a batch's title, then the question's header and its place), the
prompt (agent markdown drawn as Telegram HTML), each option with its description and the
recommended ones marked, what to choose (the contract's own words: "Choose 2 to 3 options"), the
suggested answer where a text field would show it, and the time left. The buttons, by mode:

- `single` that sends on selection: one button per option, its label;
- `single` that waits for Done, and a `hybrid` with one option at most: ◉/○ before each label;
- `multi`, and a `hybrid` with several: ☑/☐ before each label;
- "Done" wherever an answer is sent by it (a text question's only when a suggestion is shown:
  Done sends it), and "Cancel" on every question.

A button's `callback_data` says only what it does to the message it is on ("o2": choose the third
option, "t2": tick it, "d": Done, "x": Cancel): no question id, nothing secret, a few bytes of
Telegram's 64. Which question a press is for is known from the message it came from.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from provide_choice.telegram._html import bold, escaped, italic, telegram_html
from provide_choice.transports import (
    InteractionSettings,
    ProvideChoiceRequest,
    choose_text,
    shown_placeholder,
    submits_on_selection,
    takes_text,
    time_left,
)

TEXT_LIMIT = 4096
"""Characters a message may hold, as the person reads it (Telegram's limit)."""
DESCRIPTION_LIMIT = 300
DONE = "Done"
CANCEL = "Cancel"
REPLY_PROMPT = "Reply to this message with your answer"
CHOOSE, TOGGLE, SUBMIT, CANCEL_DATA = "o", "t", "d", "x"
TICKED, UNTICKED = "☑", "☐"
PICKED, UNPICKED = "◉", "○"
RECOMMENDED = "(recommended)"
ELLIPSIS = "…"
_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Heading:
    """What stands above a question's prompt: its title, or a batch's title with the question's
    header and its place ("2 of 3")."""

    title: str
    header: str | None = None
    place: tuple[int, int] | None = None

    def html(self) -> str:
        if self.header is None or self.place is None:
            return bold(self.title)
        number, count = self.place
        return f"{bold(self.title)}\n{bold(self.header)} · {number} of {count}"


@dataclass(frozen=True)
class Card:
    """A question's message as sent: its HTML text and its inline keyboard."""

    text: str
    keyboard: dict[str, Any]


def radio(request: ProvideChoiceRequest) -> bool:
    """Whether one option at most is chosen at a time (a pick replaces the one before)."""
    return request.limits.maximum == 1


def question_card(
    heading: Heading,
    request: ProvideChoiceRequest,
    settings: InteractionSettings,
    chosen: list[str],
    seconds_left: float,
) -> Card:
    """The message of `request` with `chosen` ticked, `seconds_left` to answer."""
    return Card(
        _fitted(heading, request, settings, seconds_left), _keyboard(request, settings, chosen)
    )


def reply_markup(request: ProvideChoiceRequest, settings: InteractionSettings) -> dict[str, Any]:
    """The second message of a question that takes text: Telegram opens the reply field on it
    (showing the suggestion, where it fits there)."""
    markup: dict[str, Any] = {"force_reply": True}
    suggestion = shown_placeholder(request, settings)
    if suggestion is not None and len(suggestion) <= 64:
        markup["input_field_placeholder"] = suggestion
    return markup


def _fitted(
    heading: Heading, request: ProvideChoiceRequest, settings: InteractionSettings, left: float
) -> str:
    """The text, within Telegram's limit: long descriptions go first, then the prompt is cut,
    then the list of options (every option keeps its button)."""
    prompt, options = request.prompt, _option_lines(request, DESCRIPTION_LIMIT)
    text = _text(heading, prompt, options, request, settings, left)
    if _length(text) > TEXT_LIMIT:
        options = _option_lines(request, 0)
        text = _text(heading, prompt, options, request, settings, left)
    while _length(text) > TEXT_LIMIT and len(prompt) > 200:
        prompt = prompt[: len(prompt) * 2 // 3].rstrip() + ELLIPSIS
        text = _text(heading, prompt, options, request, settings, left)
    while _length(text) > TEXT_LIMIT and len(options) > 1:
        options = [*options[: len(options) // 2], escaped(f"{ELLIPSIS} more on the buttons")]
        text = _text(heading, prompt, options, request, settings, left)
    return text


def _text(
    heading: Heading,
    prompt: str,
    options: list[str],
    request: ProvideChoiceRequest,
    settings: InteractionSettings,
    left: float,
) -> str:
    blocks = [heading.html(), telegram_html(prompt)]
    if options:
        blocks.append("\n".join(options))
    rules = [italic(choose_text(request, settings))] if request.options else []
    suggestion = shown_placeholder(request, settings)
    if suggestion is not None:
        rules.append(f"Suggested answer: {italic(suggestion)} ({DONE} sends it)")
    if request.selection_mode == "text_input":
        rules.append(escaped("Reply to the message below with your answer."))
    elif takes_text(request):
        rules.append(escaped("Or reply to the message below with your own answer."))
    rules.append(escaped(f"Time left: {time_left(left)}"))
    blocks.append("\n".join(rules))
    return "\n\n".join(block for block in blocks if block)


def ended_text(
    heading: Heading, request: ProvideChoiceRequest, settings: InteractionSettings, line: str
) -> str:
    """The message once it was answered or ended: the question, then `line` (HTML) in bold."""
    text = _fitted(heading, request, settings, 0)
    question = text.rsplit("\n\n", 1)[0]  # without what to choose and the time left
    return f"{question}\n\n<b>{line}</b>"


def _option_lines(request: ProvideChoiceRequest, description_limit: int) -> list[str]:
    lines = []
    for option in request.options or ():
        line = f"• {bold(option.label)}"
        if option.recommended:
            line += f" {escaped(RECOMMENDED)}"
        if option.description and description_limit:
            line += f" — {escaped(_clipped(option.description, description_limit))}"
        lines.append(line)
    return lines


def _keyboard(
    request: ProvideChoiceRequest, settings: InteractionSettings, chosen: list[str]
) -> dict[str, Any]:
    rows: list[list[dict[str, str]]] = []
    options = request.options or ()
    sends = submits_on_selection(request, settings)
    for index, option in enumerate(options):
        if sends:
            rows.append([_button(option.label, f"{CHOOSE}{index}")])
        elif radio(request):
            mark = PICKED if option.id in chosen else UNPICKED
            rows.append([_button(f"{mark} {option.label}", f"{CHOOSE}{index}")])
        else:
            mark = TICKED if option.id in chosen else UNTICKED
            rows.append([_button(f"{mark} {option.label}", f"{TOGGLE}{index}")])
    last = []
    if (options and not sends) or (
        not options and shown_placeholder(request, settings) is not None
    ):
        last.append(_button(DONE, SUBMIT))
    last.append(_button(CANCEL, CANCEL_DATA))
    rows.append(last)
    return {"inline_keyboard": rows}


def _button(text: str, data: str) -> dict[str, str]:
    return {"text": text, "callback_data": data}


def plain(text: str) -> str:
    """Telegram HTML as the person reads it."""
    return html.unescape(_TAG.sub("", text))


def _length(text: str) -> int:
    return len(plain(text))


def _clipped(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + ELLIPSIS

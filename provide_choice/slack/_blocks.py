"""What one question looks like in Slack: its message's Block Kit blocks.

From the top: a header with the title (a batch's title, then a line with the question's header
and its place, "Features · 2 of 3"); the prompt, agent markdown drawn as mrkdwn (`_mrkdwn`); each
option with its description, the recommended ones marked; what to choose (the contract's own
words: "Choose 2 to 3 options"), the suggested answer where a text field would show it, and the
time left. Then what the person does, by mode:

- `single` that sends on selection: one button per option (the recommended one styled primary);
- `single` that waits for Submit, and a `hybrid` with one option at most: radio buttons;
- `multi`, and a `hybrid` with several: checkboxes (ticked at first for `default_selection_ids`);
- `text_input` and `hybrid`: a text field (its placeholder the suggestion, where one is shown);
- "Submit" wherever an answer is sent by it, and "Cancel" on every question.

Block Kit buttons have no disabled state: once a question ended, `ended_blocks` draws the same
question without its elements, ending with a line that says how. The elements' ids say only what
they do ("o2": the third option's button, "tick", "submit"): which question a press is for is
known from the message it came from. Slack keeps what is ticked, picked and typed in its client
and sends it with every action (`state.values`): Submit reads it there.
"""

from __future__ import annotations

from typing import Any

from provide_choice.slack._mrkdwn import bold, entities, escaped, italic, slack_mrkdwn
from provide_choice.transports import (
    InteractionSettings,
    ProvideChoiceRequest,
    Step,
    choose_text,
    shown_placeholder,
    submits_on_selection,
    takes_text,
    time_left,
)

SUBMIT = "Submit"
CANCEL = "Cancel"
RECOMMENDED = "(recommended)"
CHOICES_BLOCK, TEXT_BLOCK, SEND_BLOCK = "choices", "typed", "send"
CHOOSE, PICK, TICK, TEXT, SUBMIT_ACTION, CANCEL_ACTION = (
    "o",
    "pick",
    "tick",
    "text",
    "submit",
    "cancel",
)
HEADER_LIMIT = 150
SECTION_LIMIT = 3000
BUTTON_LIMIT = 75
OPTION_LIMIT = 75
PLACEHOLDER_LIMIT = 150
DESCRIPTION_LIMIT = 300
ELLIPSIS = "…"
TYPE_HERE = "Your answer"
OR_TYPE_HERE = "Or your own answer"

Block = dict[str, Any]


def radio(request: ProvideChoiceRequest) -> bool:
    """Whether one option at most is chosen at a time (a pick replaces the one before)."""
    return request.limits.maximum == 1


def question_blocks(step: Step, settings: InteractionSettings, seconds_left: float) -> list[Block]:
    """The message of `step`, `seconds_left` to answer, with what the person does."""
    request = step.request
    blocks = [*_question(step), _rules(request, settings, seconds_left)]
    if request.options:
        blocks.append(_choices(request, settings))
    if takes_text(request):
        blocks.append(_text_field(request, settings))
    send = [_button(CANCEL, CANCEL_ACTION, style="danger")]
    if not submits_on_selection(request, settings):
        send.insert(0, _button(SUBMIT, SUBMIT_ACTION, style="primary"))
    blocks.append({"type": "actions", "block_id": SEND_BLOCK, "elements": send})
    return blocks


def ended_blocks(step: Step, line: str) -> list[Block]:
    """The message once its question ended: the question, then `line` (plain text) in bold."""
    return [*_question(step), _section(bold(line))]


def notification_text(step: Step) -> str:
    """The message's `text`: what a notification shows of it (the blocks are the message)."""
    return escaped(step.title if step.place_words is None else f"{step.title}: {step.place_words}")


def _question(step: Step) -> list[Block]:
    """The header, the batch's place, the prompt and the options: what stays once it ended."""
    header = {"type": "plain_text", "text": _fitted(step.title, HEADER_LIMIT)}
    blocks: list[Block] = [{"type": "header", "text": header | {"emoji": False}}]
    if step.place_words is not None:
        blocks.append(_context(bold(step.place_words)))
    blocks += [_section(part) for part in _parts(slack_mrkdwn(step.request.prompt))]
    if step.request.options:
        blocks.append(_section("\n".join(_option_lines(step.request))))
    return blocks


def _rules(request: ProvideChoiceRequest, settings: InteractionSettings, left: float) -> Block:
    rules = [italic(choose_text(request, settings))] if request.options else []
    suggestion = shown_placeholder(request, settings)
    if suggestion is not None:
        rules.append(f"Suggested answer: {italic(suggestion)} ({SUBMIT} sends it)")
    rules.append(escaped(f"Time left: {time_left(left)}"))
    return {"type": "context", "elements": [_mrkdwn(rule) for rule in rules]}


def _option_lines(request: ProvideChoiceRequest) -> list[str]:
    lines = []
    for option in request.options or ():
        line = f"• {bold(option.label)}"
        if option.recommended:
            line += f" {RECOMMENDED}"
        if option.description:
            line += f" — {escaped(_clipped(option.description, DESCRIPTION_LIMIT))}"
        lines.append(line)
    return lines


def _choices(request: ProvideChoiceRequest, settings: InteractionSettings) -> Block:
    options = request.options or ()
    if submits_on_selection(request, settings):
        elements = [
            _button(
                option.label, f"{CHOOSE}{index}", style="primary" if option.recommended else None
            )
            for index, option in enumerate(options)
        ]
        return {"type": "actions", "block_id": CHOICES_BLOCK, "elements": elements}
    choices = [
        {"text": _plain(option.label, OPTION_LIMIT), "value": f"{CHOOSE}{index}"}
        for index, option in enumerate(options)
    ]
    initial = [
        choice
        for choice, option in zip(choices, options, strict=True)
        if option.id in request.default_selection_ids
    ]
    element: Block = {"options": choices}
    if radio(request):
        element |= {"type": "radio_buttons", "action_id": PICK}
        if initial:
            element["initial_option"] = initial[0]
    else:
        element |= {"type": "checkboxes", "action_id": TICK}
        if initial:
            element["initial_options"] = initial
    return {"type": "actions", "block_id": CHOICES_BLOCK, "elements": [element]}


def _text_field(request: ProvideChoiceRequest, settings: InteractionSettings) -> Block:
    element: Block = {"type": "plain_text_input", "action_id": TEXT, "multiline": True}
    suggestion = shown_placeholder(request, settings)
    if suggestion is not None:
        element["placeholder"] = _plain(suggestion, PLACEHOLDER_LIMIT)
    label = TYPE_HERE if request.selection_mode == "text_input" else OR_TYPE_HERE
    return {
        "type": "input",
        "block_id": TEXT_BLOCK,
        "label": {"type": "plain_text", "text": label},
        "element": element,
        "dispatch_action": False,
        "optional": True,
    }


def _button(text: str, action: str, *, style: str | None = None) -> Block:
    button: Block = {
        "type": "button",
        "text": _plain(text, BUTTON_LIMIT),
        "action_id": action,
        "value": action,
    }
    if style is not None:
        button["style"] = style
    return button


def _plain(text: str, limit: int) -> Block:
    return {"type": "plain_text", "text": _fitted(text, limit), "emoji": False}


def _mrkdwn(text: str) -> Block:
    return {"type": "mrkdwn", "text": text, "verbatim": True}


def _section(text: str) -> Block:
    return {"type": "section", "text": _mrkdwn(text)}


def _context(text: str) -> Block:
    return {"type": "context", "elements": [_mrkdwn(text)]}


def _parts(text: str) -> list[str]:
    """`text` in pieces Slack takes (a section holds 3000 characters): whole paragraphs where
    they fit, a paragraph too long cut between words, never inside an entity or `<...>`."""
    parts: list[str] = []
    for paragraph in text.split("\n\n"):
        while len(paragraph) > SECTION_LIMIT:
            cut = _cut_at(paragraph, SECTION_LIMIT - 1)
            parts.append(paragraph[:cut].rstrip() + ELLIPSIS)
            paragraph = paragraph[cut:].lstrip()
        if parts and len(parts[-1]) + 2 + len(paragraph) <= SECTION_LIMIT:
            parts[-1] += "\n\n" + paragraph
        elif paragraph:
            parts.append(paragraph)
    return parts or [ELLIPSIS]


def _cut_at(text: str, limit: int) -> int:
    cut = max(text.rfind(" ", 0, limit), text.rfind("\n", 0, limit))
    cut = cut if cut > limit // 2 else limit
    opened, closed = text.rfind("<", 0, cut), text.rfind(">", 0, cut)
    if opened > closed:
        cut = opened
    entity = text.rfind("&", 0, cut)
    if entity > text.rfind(";", 0, cut):
        cut = entity
    return cut


def _fitted(text: str, limit: int) -> str:
    """`text` with Slack's entities, cut to `limit` characters as sent."""
    cut = limit
    while len(shown := entities(_clipped(text, cut))) > limit:
        cut -= 1
    return shown


def _clipped(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + ELLIPSIS

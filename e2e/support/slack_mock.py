"""A rendered mock of a Slack channel, drawn from the messages the stand-in Slack recorded: what
the README's picture of a question in Slack shows. Each message is drawn from its own Block Kit
blocks (header, context, sections in mrkdwn, buttons, radio buttons, checkboxes, a text field),
as a person's client holds them (`state`: what they ticked, picked and typed); mrkdwn is read as
Slack reads it (a date's fallback as plain text, `*bold*`, `_italic_`, `~strike~`, `` `code` ``
at word boundaries, and the three entities)."""

from __future__ import annotations

import html
import re
from typing import Any

from slack_api import Message
from slack_mrkdwn import CONTROL, decoded

STYLE = """
body { margin: 0; background: #fff; font: 15px/1.46 -apple-system, "Segoe UI", Roboto,
  "Noto Sans", Arial, sans-serif; color: #1d1c1d; }
header { border-bottom: 1px solid #ddd; padding: 10px 18px; font-weight: 700; }
main { padding: 12px 18px 18px; max-width: 560px; display: flex; gap: 10px; }
.avatar { width: 36px; height: 36px; border-radius: 6px; background: #4a154b; flex: none; }
.who b { margin-right: 6px; } .who small { color: #616061; }
.app { background: #e8e8e8; color: #616061; font-size: 10px; padding: 1px 3px; border-radius: 2px; }
h1 { font-size: 18px; margin: 6px 0 4px; }
.section { white-space: pre-wrap; margin: 6px 0; }
.context { color: #616061; font-size: 13px; margin: 4px 0; }
.context span + span::before { content: "  ·  "; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; color: #e01e5a;
  background: #f8f8f8; border: 1px solid #e8e8e8; border-radius: 3px; padding: 0 2px; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; margin: 8px 0; }
button { font: inherit; font-size: 14px; font-weight: 700; border: 1px solid #bbb;
  border-radius: 4px; background: #fff; padding: 4px 12px; }
button.primary { background: #007a5a; border-color: #007a5a; color: #fff; }
button.danger { background: #e01e5a; border-color: #e01e5a; color: #fff; }
.choices { display: grid; gap: 4px; }
.choices label { display: flex; gap: 8px; align-items: center; }
.input { margin: 8px 0; } .input b { display: block; margin-bottom: 4px; }
.input input { font: inherit; width: 100%; border: 1px solid #bbb; border-radius: 4px;
  padding: 6px 8px; box-sizing: border-box; }
"""
STYLES = (("*", "b"), ("_", "i"), ("~", "s"))


def mrkdwn_html(raw: str) -> str:
    """mrkdwn as HTML, as Slack shows it."""
    kept: list[str] = []
    """HTML that no marker may touch: a control's text, a code span."""

    def keep(shown: str) -> str:
        kept.append(shown)
        return f"\x00{len(kept) - 1}\x00"

    def control(found: re.Match[str]) -> str:
        target, _, label = found.group(1).partition("|")
        return keep(html.escape(decoded(label if target.startswith("!date^") else label or target)))

    text = CONTROL.sub(control, raw)
    text = re.sub(
        r"`([^`\n]+)`",
        lambda found: keep(f"<code>{html.escape(decoded(found.group(1)))}</code>"),
        text,
    )
    text = html.escape(decoded(text), quote=False)
    for marker, tag in STYLES:
        m = re.escape(marker)
        text = re.sub(rf"(?<![\w]){m}(?=\S)(.+?)(?<=\S){m}(?!\w)", rf"<{tag}>\1</{tag}>", text)
    return re.sub(r"\x00(\d+)\x00", lambda found: kept[int(found.group(1))], text)


def _text(text: dict[str, Any]) -> str:
    if text["type"] == "plain_text":
        return html.escape(decoded(text["text"]))
    return mrkdwn_html(text["text"])


def _element(element: dict[str, Any], state: dict[str, Any]) -> str:
    kind = element["type"]
    if kind == "button":
        style = element.get("style", "")
        return f'<button class="{style}">{_text(element["text"])}</button>'
    if kind in ("checkboxes", "radio_buttons"):
        held = state.get(element["block_id"], {}).get(element["action_id"], {})
        chosen = [option["value"] for option in held.get("selected_options") or []]
        if held.get("selected_option"):
            chosen.append(held["selected_option"]["value"])
        box = "checkbox" if kind == "checkboxes" else "radio"
        return (
            '<div class="choices">'
            + "".join(
                f'<label><input type="{box}"{" checked" if option["value"] in chosen else ""}>'
                f"{_text(option['text'])}</label>"
                for option in element["options"]
            )
            + "</div>"
        )
    return ""


def _block(block: dict[str, Any], state: dict[str, Any]) -> str:
    kind = block["type"]
    if kind == "header":
        return f"<h1>{_text(block['text'])}</h1>"
    if kind == "section":
        return f'<div class="section">{_text(block["text"])}</div>'
    if kind == "context":
        spans = "".join(f"<span>{_text(element)}</span>" for element in block["elements"])
        return f'<div class="context">{spans}</div>'
    if kind == "actions":
        elements = [dict(element, block_id=block["block_id"]) for element in block["elements"]]
        return (
            '<div class="actions">'
            + "".join(_element(element, state) for element in elements)
            + "</div>"
        )
    if kind == "input":
        element = block["element"]
        held = state.get(block["block_id"], {}).get(element["action_id"], {})
        placeholder = html.escape(decoded(element.get("placeholder", {}).get("text", "")))
        value = html.escape(held.get("value") or "")
        return (
            f'<div class="input"><b>{_text(block["label"])}</b>'
            f'<input placeholder="{placeholder}" value="{value}" aria-label="{_text(block["label"])}">'
            "</div>"
        )
    return ""


def channel_page(
    messages: list[tuple[Message, dict[str, Any]]], channel: str = "# questions"
) -> str:
    """An HTML page showing `messages` (each with the person's client state for it) as Slack
    shows them."""
    shown = "".join(
        '<div class="message"><div class="who"><b>provide-choice</b><span class="app">APP</span> '
        "<small>10:42</small></div>"
        + "".join(_block(block, state) for block in message.blocks)
        + "</div>"
        for message, state in messages
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Slack (mock)</title>'
        f"<style>{STYLE}</style></head><body><header>{html.escape(channel)}</header>"
        f'<main><div class="avatar"></div><div>{shown}</div></main></body></html>'
    )

"""A rendered mock of a Telegram chat, drawn from the messages the stand-in Bot API recorded:
what the README's picture of a question in Telegram shows. The messages' text is the bot's own
Telegram HTML (the stand-in accepted it: only the tags Telegram reads, everything else escaped),
so it is drawn as Telegram draws it; the buttons are the message's inline keyboard, row by row."""

from __future__ import annotations

import html

from telegram_api import Message

STYLE = """
body { margin: 0; background: #c8d7b8; font: 15px/1.35 -apple-system, "Segoe UI", Roboto,
  "Noto Sans", Arial, sans-serif; color: #000; }
header { background: #517da2; color: #fff; padding: 10px 16px; font-weight: 600; }
header small { display: block; font-weight: 400; opacity: .8; }
main { padding: 14px 12px 18px; max-width: 440px; }
.bubble { background: #fff; border-radius: 12px 12px 12px 4px; padding: 8px 11px 10px;
  white-space: pre-wrap; box-shadow: 0 1px 1px rgba(0,0,0,.15); margin-top: 10px; }
.bubble pre, .bubble code { font-family: "DejaVu Sans Mono", monospace; font-size: 13px; }
.keyboard { display: grid; gap: 4px; margin-top: 4px; }
.row { display: flex; gap: 4px; }
.row button { flex: 1; border: 0; border-radius: 8px; padding: 9px 6px; font: inherit;
  color: #fff; background: rgba(78, 112, 80, .55); }
.reply { background: #effdde; border-radius: 12px 12px 4px 12px; padding: 8px 11px;
  margin: 10px 0 0 auto; width: fit-content; }
"""


def chat_page(messages: list[Message], bot: str = "Choices bot") -> str:
    """An HTML page showing `messages` as the person's Telegram shows them."""
    shown = []
    for message in messages:
        if not message.from_bot:
            shown.append(f'<div class="reply">{html.escape(message.text)}</div>')
            continue
        text = message.text if message.parse_mode == "HTML" else html.escape(message.text)
        rows = (message.reply_markup or {}).get("inline_keyboard", [])
        keyboard = "".join(
            '<div class="row">'
            + "".join(f"<button>{html.escape(button['text'])}</button>" for button in row)
            + "</div>"
            for row in rows
        )
        shown.append(
            f'<div class="bubble">{text}</div>'
            + (f'<div class="keyboard">{keyboard}</div>' if keyboard else "")
        )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Telegram (mock)</title>'
        f"<style>{STYLE}</style></head><body><header>{html.escape(bot)}<small>bot</small></header>"
        f"<main>{''.join(shown)}</main></body></html>"
    )

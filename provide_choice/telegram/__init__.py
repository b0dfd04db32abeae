"""Telegram: every question in the person's Telegram chat too, answered with its buttons or a
reply, from anywhere (the `telegram` extra; a plug-in on the public transport seam).

Set up in two steps: a bot's token from BotFather (`PROVIDE_CHOICE_TELEGRAM_TOKEN`), then
`provide-choice telegram link`. From then on `telegram` is an alert channel (every question asked
anywhere is also sent to the chat) and a transport (`transport: "telegram"` asks there alone).
It imports only `provide_choice.transports`, `present_choices`, httpx and the standard library.
"""

from provide_choice.telegram._transport import TelegramTransport

__all__ = ["TelegramTransport"]

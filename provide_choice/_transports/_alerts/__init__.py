"""Telling the person a question waits, wherever they are: its terminal, the desktop, a phone.

- `_scheduler`: `QuestionAlerts`, when each alert of a question goes (one of its registry's
  recorders);
- `_terminal`: the escape sequence that asks the terminal drawing a question to notify;
- `_desktop`: a system notification (desktop-notifier, the `[notify]` extra);
- `_push`: a notification to every address the person listed (apprise, the `[push]` extra);
- `_mirrors`: the transports that follow every question asked elsewhere (Telegram), and what a
  transport may ask of the alerts;
- `_message`: what each says; `_text`: agent text made plain for all of them.

The browser's alerts (the tab's count and badge, the inbox's notifications) are its pages' scripts.
"""

from provide_choice._transports._alerts._mirrors import Alerts, Mirrors
from provide_choice._transports._alerts._scheduler import QuestionAlerts
from provide_choice._transports._alerts._terminal import terminal_alert

__all__ = ["Alerts", "Mirrors", "QuestionAlerts", "terminal_alert"]

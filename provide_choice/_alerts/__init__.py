"""Telling the person a question waits, wherever they are: the desktop, a phone.

The alerts are told about questions (`QuestionAlerts` is one of a registry's recorders); they do not
show them, so they stand under the transports, which do. The terminal's own alert is the terminal's:
the terminal that draws a question writes it (`_transports._terminal_view._alert`), with the text
made plain here (`_text`). The browser's alerts (the tab's count and badge, the inbox's
notifications) are its pages' scripts.

- `_scheduler`: `QuestionAlerts`, when each alert of a question goes;
- `_desktop`: a system notification (desktop-notifier, the `[notify]` extra);
- `_push`: a notification to every address the person listed (apprise, the `[push]` extra);
- `_mirrors`: the transports that follow every question asked elsewhere (Telegram), and what a
  transport may ask of the alerts;
- `_message`: what each says; `_text`: agent text made plain for every alert, the terminal's too.

Each name below is loaded on first use: a terminal that only makes a title plain (`_text`, the
hand-off's `choice-terminal` among them) loads neither the scheduler nor the question layer.
"""

from typing import TYPE_CHECKING

from present_choices._lazy_names import lazy_names as _lazy_names

if TYPE_CHECKING:
    from provide_choice._alerts._mirrors import Alerts, Mirrors
    from provide_choice._alerts._scheduler import QuestionAlerts

_MODULES = {
    "Alerts": "provide_choice._alerts._mirrors",
    "Mirrors": "provide_choice._alerts._mirrors",
    "QuestionAlerts": "provide_choice._alerts._scheduler",
}
__all__ = ["Alerts", "Mirrors", "QuestionAlerts"]
__getattr__, __dir__ = _lazy_names(__name__, _MODULES, __all__)

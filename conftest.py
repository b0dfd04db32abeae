"""Set-up shared by every test, fast (tests/) and end to end (e2e/), so a bare `pytest` runs all.

NiceGUI's simulated `user` fixture is a plugin, and pytest takes plugins only from this top-level
conftest; it touches nothing until a test asks for `user`.

No test alerts the person who runs it: every process a test starts inherits an environment
without their push addresses, their Telegram bot, and with no session bus to reach their desktop (the alert tests
bring a webhook and a bus of their own).

No test reaches the internet: Gradio's usage analytics are off (`GRADIO_ANALYTICS_ENABLED=False`,
as `examples/gradio_chat.py` sets it), or a Gradio app built in a test (the documentation's own
example) would look up api.gradio.app and huggingface.co.

Every test asks as on a person's machine, whatever the CI that runs it sets: `CI=true` (and
`PROVIDE_CHOICE_UNATTENDED`, `PROVIDE_CHOICE_ANSWERS`) would make `provide-choice serve` and `ask`
answer every question at once, shown nowhere. They are dropped for the whole session, so a server
in-process and every process a test starts are attended; a test of unattended runs sets them
itself (`attended_environment(home, CI="true")`, `monkeypatch.setenv`).

The transports this package registers as plug-ins (its entry point: Telegram) are loaded once for
the whole run, as every `provide-choice` command loads them, so a test's lists of transports do
not depend on which test ran first in its process.

Every process a test starts gets SIGINT as a person's shell gives a command it runs: a test runner
started in the background (by a script, with `&`; nohup; a CI agent that runs it so) ignores
SIGINT, every process it starts inherits that, and a command that rightly keeps an ignored SIGINT
ignored (`provide-choice ask` between two screens) would fail the tests that stop it with one.

The terminals speak the language of `LC_ALL`, `LC_MESSAGES` and `LANG`: the tests start from no
language at all (English, the source), whatever the machine running them reads, and a test that
wants another sets it for itself (and for the commands it starts).

Once every test module is imported, what the process holds is frozen out of the garbage collector's
way (`gc.freeze`): NiceGUI's `user` fixture collects garbage twice per test, and walking every object
of a test process that imported NiceGUI, Playwright, the MCP SDK and Gradio took a second or more
of each such test on a busy machine; what the tests themselves make is still collected.
"""

import functools
import gc
import os
import signal

import pytest
from attended import UNATTENDED_VARIABLES
from nicegui.testing.user import User

from provide_choice._transports._plug_ins import load_plugins

pytest_plugins = ["nicegui.testing.user_plugin"]

os.environ.pop("PROVIDE_CHOICE_NOTIFY", None)
for _name in ("TOKEN", "CHAT", "API"):  # no test reaches the person's own Telegram bot
    os.environ.pop(f"PROVIDE_CHOICE_TELEGRAM_{_name}", None)
os.environ["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
for name in UNATTENDED_VARIABLES:
    os.environ.pop(name, None)

# Every test sees the package as installed, whatever ran before it in its process: the transports
# it registers through its entry point (Telegram) are there from the start, as in `provide-choice`.
load_plugins()


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


USER_RETRIES = 50
"""How often `user.should_see` and `should_not_see` look before they fail, unless a test says:
NiceGUI's 3 (0.3 s) is too short for a reply on a machine busy with the other tests running beside
it (pytest-xdist). Each returns at the first look that finds what it asks: a passing test waits no
longer."""


@pytest.fixture
def user(user: User) -> User:
    """NiceGUI's simulated user, waiting up to `USER_RETRIES` looks for what it should (not) see."""
    for name in ("should_see", "should_not_see"):
        method = getattr(User, name)
        setattr(user, name, functools.partial(method, user, retries=USER_RETRIES))
    return user

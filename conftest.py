"""Set-up shared by every test, fast (tests/) and end to end (e2e/), so a bare `pytest` runs all.

NiceGUI's simulated `user` fixture is a plugin, and pytest takes plugins only from this top-level
conftest; it touches nothing until a test asks for `user`.

No test alerts the person who runs it: every process a test starts inherits an environment
without their push addresses and with no session bus to reach their desktop (the alert tests
bring a webhook and a bus of their own).
"""

import os

pytest_plugins = ["nicegui.testing.user_plugin"]

os.environ.pop("PROVIDE_CHOICE_NOTIFY", None)
os.environ["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"

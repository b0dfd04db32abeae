"""Set-up shared by every test, fast (tests/) and end to end (e2e/), so a bare `pytest` runs all.

NiceGUI's simulated `user` fixture is a plugin, and pytest takes plugins only from this top-level
conftest; it touches nothing until a test asks for `user`.

The terminals speak the language of `LC_ALL`, `LC_MESSAGES` and `LANG`: the tests start from no
language at all (English, the source), whatever the machine running them reads, and a test that
wants another sets it for itself (and for the commands it starts).
"""

import os

pytest_plugins = ["nicegui.testing.user_plugin"]

for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

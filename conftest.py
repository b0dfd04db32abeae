"""Set-up shared by every test, fast (tests/) and end to end (e2e/), so a bare `pytest` runs all.

NiceGUI's simulated `user` fixture is a plugin, and pytest takes plugins only from this top-level
conftest; it touches nothing until a test asks for `user`.
"""

pytest_plugins = ["nicegui.testing.user_plugin"]

"""Shared test set-up: NiceGUI's simulated `user` fixture, for UI element tests without a browser."""

pytest_plugins = ["nicegui.testing.user_plugin"]

"""The parts of `choices-chat` (the command is `chat_ui.__main__`) that need no UI: its options and
the rules between them (`_options`), and where it keeps NiceGUI's storage and the cookie secret
(`_storage`). Nothing here imports NiceGUI or another floor of `chat_ui`."""

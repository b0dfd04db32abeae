"""The history: the SQLite store every server writes (`_store`), the recorder that feeds it from a
server's questions (`_recorder`), the `provide-choice history` command (`_command`), and the inbox
page that shows what waits in every server (`_inbox/`)."""

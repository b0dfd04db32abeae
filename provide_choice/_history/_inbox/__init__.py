"""The inbox: one local page with every question waiting in any `provide-choice` server of this
person, read from the shared history (`provide-choice inbox`).

Importing this package loads no web framework: question pages only need `_link` (is an inbox
running, and where), and `_server` loads FastAPI and uvicorn when the inbox is served.
"""

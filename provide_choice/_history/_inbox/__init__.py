"""The inbox: one local page with every question waiting in any `provide-choice` server of this
person, read from the shared history (`provide-choice inbox`).

Importing this package loads no web framework: `_server` loads Starlette and uvicorn when the inbox
is served. Question pages never import it: they read where it runs from `_history._inbox_link`.
"""

"""The terminal hand-off: a question answered in a terminal the agent opens (`choice-terminal`).

`_transport` is `TerminalHandoffTransport`, which imports no FastAPI: its routes (`_routes`) load
when the bridge first starts. `_command` is the command it gives the agent, and where on the bridge
that command finds the question. `_client` is the `choice-terminal` command, which loads the session
it runs (`_remote`: the question as the terminal reaches it over the bridge) only once its command
line is read, so its `--help` loads none of it.
"""

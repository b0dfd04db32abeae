"""The terminal hand-off: a question answered in a terminal the agent opens (`choice-terminal`).

`_transport` is `TerminalHandoffTransport`, which imports no Starlette: its routes (`_routes`) load
when the bridge first starts. `_command` is the command it gives the agent, and where on the bridge
that command finds the question. `_remote` is the session `choice-terminal` runs (the command is
`provide_choice._commands._choice_terminal`): the question as that terminal reaches it over the
bridge.
"""

"""The commands a person runs, one module each, under `__main__` (which reads the command line and
runs the one named) and above the server they start or ask like.

- `_command_line`: every command, its options and how each is checked; it builds without importing
  what the commands use, so `--help` and a mistyped option answer at once;
- `_serve`: `serve` (the MCP server over stdio or HTTP) and `inbox` (the page of every waiting
  question);
- `_ask`: `ask` (one question from a shell script); `_history`: `history`; `_client_config`:
  `client-config`;
- `_choice_terminal`: `choice-terminal`, a console script of its own (the terminal an agent opens
  for a handed-off question);
- `_running`: what they share as they run: `CommandError` (one line, exit status 2), the person's
  settings and language, who answers when nobody can, the data made private.

Each command imports only what it uses, when it runs (`__main__` imports a command's module only to
run it): `serve` never loads the terminal UI before a question needs it, `ask` and `choice-terminal`
never load the MCP SDK, and no `--help` loads a transport.
"""

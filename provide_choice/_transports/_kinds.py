"""The built-in transports' descriptions (`TransportKind`: name, labels, when each is usable, its
place in the automatic order), apart from the transports themselves. Whatever reads the table of
transports (a setting naming one, a surface listing them, the hand-off terminal's settings) needs
these and never the transports, which load what they show questions with. The table imports this
module when it is first read (`built_ins_in`), and importing it registers them, first and in order.
"""

from __future__ import annotations

from present_choices._translation import N_
from provide_choice._contract._transport_table import TransportKind, add_kind

TERMINAL = TransportKind(
    "terminal",
    N_("The server's own terminal"),
    preference=N_("Terminal"),
    inbox=N_("Shown in its server's terminal"),
    answer_where=N_("in the terminal"),
    batches=True,
    auto_order=10,
)

TERMINAL_HANDOFF = TransportKind(
    "terminal_handoff",
    N_("A terminal the agent opens"),
    fallback_for=("terminal",),
    missing=(
        "transport 'terminal' needs a terminal, and this server has none (it runs without a "
        "terminal window) and no terminal hand-off set up. Ask the person to run "
        "`provide-choice serve --http PORT` in a terminal window and connect to it."
    ),
    inbox=N_("Shown in a terminal the agent opens"),
    answer_where=N_("in the terminal"),
    batches=True,
)

WEB = TransportKind(
    "web",
    N_("The browser"),
    preference=N_("Browser"),
    fallback_for=("elicitation",),
    batches=True,
    missing=(
        "this server was set up without the page (web), and has no terminal (stdin and stdout "
        "must be one). `provide-choice serve` asks in the browser when it has no terminal."
    ),
    auto_order=40,
)

ELICITATION = TransportKind(
    "elicitation",
    N_("The MCP client's own dialog"),
    preference=N_("The MCP client's own dialog, where it has one (else the browser)"),
    fallback_for=("app",),
    needs=lambda client: client.form,
    unusable="this MCP client has no dialog for questions (it declared no form elicitation)",
    inbox=N_("Shown in the agent's own window"),
    answer_where=N_("in the conversation"),
    batches=True,
    auto_order=30,
)

APP_VIEW = TransportKind(
    "app",
    N_("The MCP client's app view in the conversation"),
    preference=N_("In the conversation, where the MCP client draws apps (else as automatic)"),
    needs=lambda client: client.apps,
    unusable=(
        "this MCP client draws no MCP Apps (it declared no io.modelcontextprotocol/ui "
        "extension with text/html;profile=mcp-app)"
    ),
    inbox=N_("Shown in the agent's conversation"),
    answer_where=N_("in the conversation"),
    batches=True,
    auto_order=20,
)

BUILT_IN_KINDS = (TERMINAL, TERMINAL_HANDOFF, WEB, ELICITATION, APP_VIEW)
"""In the order their names are listed everywhere."""

for _kind in BUILT_IN_KINDS:
    add_kind(_kind)

"""The MCP server: its tools (`_mcp_server`), one `provide_choice` call's flow
(`_provide_choice_tool`, waiting with `_progress`), the client of a call (`_caller`), running it
over stdio or HTTP (`_serve`, `_http_app`, the server's token: `_token`), the surfaces loaded
once the tools are listed (`_warming`), the one adapter over the
MCP SDK's internals (`_sdk`), who answers when nobody can (`_unattended`), and what the commands
above it use: a question asked from a shell (`_ask`), the setup an MCP client needs
(`_client_config`). The open questions it waits on are the floor below: `provide_choice._question`."""

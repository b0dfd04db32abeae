"""The MCP server: its tools (`_mcp_server`), one `provide_choice` call's flow
(`_provide_choice_tool`), the client of a call (`_caller`), running it over stdio or HTTP
(`_serve`), and the commands a person runs (`_command_line`, `_ask`, `_client_config`). The open
questions it waits on are the floor below: `provide_choice._question`."""

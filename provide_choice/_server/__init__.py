"""The MCP server: its tools (`_mcp_server`), one `provide_choice` call's flow
(`_provide_choice_tool`), the open questions it waits on (`_sessions`), the client of a call
(`_caller`), and running it over stdio or HTTP (`_serve`)."""

"""The `app` transport: the question drawn inline in the conversation by a host that renders MCP
Apps, answered there."""

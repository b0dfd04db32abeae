"""The MCP client's own dialog (form-mode elicitation), on both protocol revisions."""

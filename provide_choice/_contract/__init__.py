"""The contract: what an agent may ask (`_request`), how a question ends and the one `normalize`
(`_response`), the person's settings (`_settings`), what they mean on a surface (`_presentation`),
and the tool's published input schema (`_tool_schema`). Nothing here shows anything."""

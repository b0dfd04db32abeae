"""The contract: what an agent may ask (`_request`), how a question ends and the one `normalize`
(`_response`), the person's settings (`_settings`), what they mean on a surface (`_presentation`),
the tool's published input schema (`_tool_schema`), and the table of transports whose names all of
these accept (`_transport_table`). Nothing here shows anything, and it imports nothing above it."""

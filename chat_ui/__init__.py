"""chat_ui: a NiceGUI chat that renders ```choices fences as accessible button groups."""

__all__: list[str] = []

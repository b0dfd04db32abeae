"""provide_choice: ask a person a structured question over MCP and get one normalized answer."""

__all__: list[str] = []

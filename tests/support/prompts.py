"""Questions the tests ask again and again: the chat's, as an agent's tool call would carry it,
and `provide_choice`'s."""

DATABASE = {
    "question": "Which database should the service use?",
    "options": [
        {"label": "PostgreSQL", "value": "postgres"},
        {"label": "SQLite", "value": "sqlite"},
    ],
}

DATABASE_REQUEST = {
    "title": "Database",
    "prompt": "The app needs storage and none is configured.",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}
"""The same question as `provide_choice` takes it (the alert tests ask it)."""

"""A question the chat's tests ask again and again, as an agent's tool call would carry it."""

DATABASE = {
    "question": "Which database should the service use?",
    "options": [
        {"label": "PostgreSQL", "value": "postgres"},
        {"label": "SQLite", "value": "sqlite"},
    ],
}

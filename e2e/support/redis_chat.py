"""Pieces of the Redis chat tests: `choices-chat` instances on a test's own Redis, sharing one
cookie secret, in front of the stand-in model server; and what that Redis holds."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from chat_harness import ChatProcess, chat_process
from model_server import ModelServer
from redis_server import RedisServer

MODEL = "qwen2.5:7b"
SECRET = "the-secret-every-instance-of-this-chat-shares"
KEY_PATTERN = "choices-chat:conversation:*"


def instance(
    redis_server: RedisServer, model_server: ModelServer, workdir: Path, model: str = MODEL
) -> AbstractContextManager[ChatProcess]:
    """One `choices-chat --agent llm --redis URL` with the shared secret."""
    agent = ["--agent", "llm", "--model", f"openai:{model}", "--base-url", model_server.base_url]
    return shared_instance(redis_server, workdir, agent)


def shared_instance(
    redis_server: RedisServer, workdir: Path, agent: list[str]
) -> AbstractContextManager[ChatProcess]:
    """One `choices-chat AGENT... --redis URL` with the shared secret."""
    environment = {"CHOICES_CHAT_STORAGE_SECRET": SECRET, "OPENAI_API_KEY": "sk-test"}
    return chat_process([*agent, "--redis", redis_server.url], workdir, environment)


def stored_conversations(redis_server: RedisServer) -> list[list[dict[str, Any]]]:
    """Every conversation in the test's Redis, as the messages kept (needs the redis extra)."""
    import redis

    with redis.Redis.from_url(redis_server.url) as client:
        return [
            [json.loads(item) for item in client.lrange(key, 0, -1)]
            for key in client.keys(KEY_PATTERN)
        ]

"""A failed model request in the person's words: what went wrong, and what to do about it.

pydantic-ai sorts every provider's failures into the same categories (a refused key, an unknown model,
a rate limit, a timeout, an unreachable server, ...), so one sentence per category serves OpenAI,
Anthropic and every OpenAI-compatible server alike. The chat shows the sentence in place of the reply;
nothing the person or the model already said is touched, and sending again retries.
"""

from __future__ import annotations

import math

from pydantic_ai import UnexpectedModelBehavior
from pydantic_ai.exceptions import (
    ModelAPIError,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelNotFoundError,
    ModelQuotaExceededError,
    ModelRateLimitError,
    ModelRequestRejectedError,
    ModelRequestTimeout,
    ModelServerError,
    ModelTimeoutError,
    ModelUnavailableError,
)
from pydantic_ai.models import Model

from chat_ui._addresses import without_password
from chat_ui._llm_model import key_variable_of

PREFIX = "The model could not reply: "
LONGEST_DETAIL = 300  # characters of a server's own message that are quoted


def describe_failure(error: Exception, model: Model) -> str:
    """One or two sentences for the person about `error`, raised while `model` was replying."""
    return PREFIX + _reason(error, model)


def _reason(error: Exception, model: Model) -> str:
    status = _status(error)
    server = (
        f"the model server at {without_password(model.base_url)}"
        if model.base_url
        else "the model server"
    )
    if isinstance(error, ModelAuthenticationError):
        variable = key_variable_of(model)
        check = f"Check {variable}." if variable else "Check the API key."
        return f"{server} refused the API key{status}. {check}"
    if isinstance(error, ModelNotFoundError):
        suggestion = getattr(error, "suggested_model_id", None)
        check = f"Did you mean {suggestion!r}?" if suggestion else "Check its name."
        return f"{server} does not know the model {model.model_name!r}{status}. {check}"
    if isinstance(error, ModelRateLimitError):
        wait = (
            f"in {math.ceil(error.retry_after)} seconds"
            if error.retry_after is not None
            else "in a minute"
        )
        return f"{server} is receiving too many requests{status}. Try again {wait}."
    if isinstance(error, ModelQuotaExceededError):
        return f"the account's quota or credits at {server} are used up{status}."
    if isinstance(error, ModelTimeoutError | ModelRequestTimeout):
        return f"{server} took too long to answer. Try again."
    if isinstance(error, ModelConnectionError):
        if error.phase in ("connect", "pool"):
            return f"cannot connect to {server}. Is it running?"
        return f"the connection to {server} broke off. Try again."
    if isinstance(error, ModelUnavailableError | ModelServerError):
        return f"{server} had a problem{status}. Try again in a moment."
    if isinstance(error, ModelRequestRejectedError):
        return f"{server} refused the request{status}: {_detail(error)}"
    if isinstance(error, ModelAPIError):
        return f"the request to {server} failed{status}: {_detail(error)}"
    if isinstance(error, UnexpectedModelBehavior):
        return f"its answer could not be used ({_detail(error)}). Try again."
    return f"{type(error).__name__}: {_detail(error)}. Try again."


def _status(error: Exception) -> str:
    status = getattr(error, "status_code", None)
    return f" (HTTP {status})" if isinstance(status, int) else ""


def _detail(error: Exception) -> str:
    body = getattr(error, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    detail = str(message or getattr(error, "message", None) or error).strip()
    return detail if len(detail) <= LONGEST_DETAIL else detail[: LONGEST_DETAIL - 1] + "…"

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

from chat_ui._agents.llm._model import key_variable_of
from present_choices._addresses import without_password
from present_choices._translation import Translation, spoken

LONGEST_DETAIL = 300  # characters of a server's own message that are quoted


def describe_failure(error: Exception, model: Model) -> str:
    """One or two sentences for the person about `error`, raised while `model` was replying, in the
    language of the conversation (`spoken`)."""
    _ = spoken()
    return _.gettext("The model could not reply: {reason}", reason=_reason(error, model, _))


def _reason(error: Exception, model: Model, _: Translation) -> str:
    status = _status(error)
    server = (
        _.gettext("the model server at {url}", url=without_password(model.base_url))
        if model.base_url
        else _.gettext("the model server")
    )
    said = {"server": server, "status": status}
    if isinstance(error, ModelAuthenticationError):
        variable = key_variable_of(model)
        check = (
            _.gettext("Check {variable}.", variable=variable)
            if variable
            else _.gettext("Check the API key.")
        )
        return _.gettext("{server} refused the API key{status}. {check}", check=check, **said)
    if isinstance(error, ModelNotFoundError):
        suggestion = getattr(error, "suggested_model_id", None)
        check = (
            _.gettext("Did you mean {model}?", model=repr(suggestion))
            if suggestion
            else _.gettext("Check its name.")
        )
        return _.gettext(
            "{server} does not know the model {model}{status}. {check}",
            model=repr(model.model_name),
            check=check,
            **said,
        )
    if isinstance(error, ModelRateLimitError):
        if error.retry_after is not None:
            return _.ngettext(
                "{server} is receiving too many requests{status}. Try again in {count} second.",
                "{server} is receiving too many requests{status}. Try again in {count} seconds.",
                math.ceil(error.retry_after),
                **said,
            )
        return _.gettext(
            "{server} is receiving too many requests{status}. Try again in a minute.", **said
        )
    if isinstance(error, ModelQuotaExceededError):
        return _.gettext("the account's quota or credits at {server} are used up{status}.", **said)
    if isinstance(error, ModelTimeoutError | ModelRequestTimeout):
        return _.gettext("{server} took too long to answer. Try again.", **said)
    if isinstance(error, ModelConnectionError):
        if error.phase in ("connect", "pool"):
            return _.gettext("cannot connect to {server}. Is it running?", **said)
        return _.gettext("the connection to {server} broke off. Try again.", **said)
    if isinstance(error, ModelUnavailableError | ModelServerError):
        return _.gettext("{server} had a problem{status}. Try again in a moment.", **said)
    if isinstance(error, ModelRequestRejectedError):
        return _.gettext(
            "{server} refused the request{status}: {detail}", detail=_detail(error), **said
        )
    if isinstance(error, ModelAPIError):
        return _.gettext(
            "the request to {server} failed{status}: {detail}", detail=_detail(error), **said
        )
    if isinstance(error, UnexpectedModelBehavior):
        return _.gettext(
            "its answer could not be used ({detail}). Try again.", detail=_detail(error)
        )
    return _.gettext(
        "{error}: {detail}. Try again.", error=type(error).__name__, detail=_detail(error)
    )


def _status(error: Exception) -> str:
    status = getattr(error, "status_code", None)
    return f" (HTTP {status})" if isinstance(status, int) else ""


def _detail(error: Exception) -> str:
    body = getattr(error, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    detail = str(message or getattr(error, "message", None) or error).strip()
    return detail if len(detail) <= LONGEST_DETAIL else detail[: LONGEST_DETAIL - 1] + "…"

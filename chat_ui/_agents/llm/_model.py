"""The model behind `LLMAgent`, from pydantic-ai's `provider:model` name and an optional server address.

Everything a person can get wrong here is found before the chat serves a page: a name without its
provider, an unknown provider, a missing API key. Keys come from the providers' usual variables. An
OpenAI-compatible server of one's own (Ollama, vLLM, LM Studio, llama.cpp) is reached with a base URL;
such servers speak OpenAI's Chat Completions API (not its newer Responses API, which pydantic-ai uses
for `openai:` by default), and most need no key, so a placeholder stands in when none is set.
"""

from __future__ import annotations

import os

from pydantic_ai import UserError
from pydantic_ai.models import Model, infer_model
from pydantic_ai.providers import infer_provider_class

API_KEY_VARIABLES = {
    "openai": "OPENAI_API_KEY",
    "openai-chat": "OPENAI_API_KEY",
    "openai-responses": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
}
PLACEHOLDER_API_KEY = "not-needed"  # local servers ignore it; the OpenAI client insists on one
MODEL_FORM = (
    "PROVIDER:MODEL, for example openai:gpt-4o-mini, anthropic:claude-sonnet-4-5 or ollama:llama3.2"
)


class ModelSettingError(ValueError):
    """A model name, server address or key that cannot work; the message says what is expected."""


def build_model(name: str, base_url: str | None = None) -> Model:
    """The pydantic-ai model for `name` (`provider:model`), at `base_url` when given.

    Raises `ModelSettingError` for a name without a provider, an unknown provider, or a missing key.
    """
    provider, _, model_name = name.partition(":")
    if not provider.strip() or not model_name.strip():
        raise ModelSettingError(f"model {name!r} is not in the form {MODEL_FORM}")
    if base_url is not None and not base_url.startswith(("http://", "https://")):
        raise ModelSettingError(
            f"base URL {base_url!r} must start with http:// or https://, "
            "for example http://localhost:11434/v1"
        )
    try:
        provider_class = infer_provider_class(provider)
    except ValueError:
        raise ModelSettingError(
            f"unknown provider {provider!r} in model {name!r}; expected {MODEL_FORM}"
        ) from None
    except ImportError as error:  # a provider whose client library is not installed
        raise ModelSettingError(f"provider {provider!r} cannot be used here: {error}") from None
    key_variable = API_KEY_VARIABLES.get(provider)
    key = os.environ.get(key_variable) if key_variable else None
    try:
        if base_url is None:
            if key_variable and not key:
                raise ModelSettingError(_missing_key(name, provider, key_variable))
            return infer_model(name)
        try:
            at_server = provider_class(base_url=base_url, api_key=key or PLACEHOLDER_API_KEY)  # type: ignore[call-arg]
        except TypeError:
            raise ModelSettingError(
                f"provider {provider!r} cannot be sent to another server; a base URL works with "
                "openai, anthropic and the OpenAI-compatible providers (ollama, openrouter, ...)"
            ) from None
        kind = "openai-chat" if provider == "openai" else provider
        return infer_model(f"{kind}:{model_name}", provider_factory=lambda _: at_server)
    except UserError as error:
        raise ModelSettingError(str(error)) from None


def _missing_key(name: str, provider: str, key_variable: str) -> str:
    """The provider named, its key variable, and a local server only where one can stand in:
    OpenAI's API is what local servers speak, Anthropic's is not."""
    message = f"model {name!r} needs an API key for the {provider} provider: set {key_variable}"
    if key_variable != API_KEY_VARIABLES["openai"]:
        return message
    return (
        f"{message}, or use a local OpenAI-compatible server (Ollama, vLLM, LM Studio) with a "
        "base URL (choices-chat --base-url URL)"
    )


def key_variable_of(model: Model) -> str | None:
    """The environment variable holding the key of `model`'s provider, when it is one we know."""
    return API_KEY_VARIABLES.get(model.system)

"""`provide-choice` builds each pydantic model when first used, not when its class is defined.

The MCP SDK defines a model for every message of each protocol revision it speaks (several hundred
classes), and pydantic builds each one's validator and serializer as the class is defined: about a
sixth of the server's start before it can answer `tools/list`, for models most sessions never
meet. `build_models_on_first_use` makes every model defined after it wait for its first validation,
dump or JSON schema (pydantic's `defer_build`), in this process only: `provide-choice` calls it
before the commands that validate settings, requests or MCP messages define their first model
(`serve`, `ask`, `inbox`, `history`), and `choice-terminal` before its session's. The server builds
this package's own models once it has answered `tools/list`, while the agent's model writes its
first call (`_server._warming`).

pydantic serializes these first builds under one lock from 2.14 on; before, two threads meeting a
model at once (the server's warming thread and its event loop) could each see it half built. With an
older pydantic the models are built as they are defined, as ever.
"""

from __future__ import annotations

import re

DEFERRED_FROM = (2, 14)
"""The first pydantic whose first builds are safe from several threads."""


def build_models_on_first_use() -> bool:
    """Make every pydantic model defined from now on build on first use; False (and nothing
    changed) with a pydantic older than `DEFERRED_FROM`."""
    import pydantic

    if _release(pydantic.VERSION) < DEFERRED_FROM:
        return False
    # BaseModel's configuration is the one every model's starts from: pydantic has no other
    # process-wide default.
    pydantic.BaseModel.model_config["defer_build"] = True
    return True


def _release(version: str) -> tuple[int, int]:
    """`2.14.4` → (2, 14); a version that does not start so counts as none (0, 0)."""
    found = re.match(r"(\d+)\.(\d+)", version)
    return (int(found[1]), int(found[2])) if found else (0, 0)

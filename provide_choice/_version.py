"""The installed agent-choices version, for what names itself: the MCP server (`serverInfo`) and
`provide-choice ask` in the history."""

from __future__ import annotations


def package_version() -> str:
    """The installed agent-choices version."""
    # Deferred for start-up time: loaded only when this runs.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("agent-choices")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"

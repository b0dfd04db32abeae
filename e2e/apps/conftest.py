"""What the MCP Apps tests share: the test host's bundle, built once per session."""

from __future__ import annotations

import pytest
from app_host import HostUnavailable, build_host_bundle


@pytest.fixture(scope="session")
def host_bundle(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The test host for the browser; the tests skip, saying why, where Node is missing."""
    try:
        return build_host_bundle(tmp_path_factory.mktemp("app-host"))
    except HostUnavailable as missing:
        pytest.skip(str(missing))

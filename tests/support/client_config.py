"""What `provide-choice client-config` prints, as the documentation shows it: the full path of this
installation's `provide-choice` written as a placeholder, and the server's token as `<token>`."""

from __future__ import annotations

import pytest

import provide_choice.__main__ as provide_choice_cli
from provide_choice._server._client_config import server_command

PLACEHOLDER = "/path/to/.venv/bin/provide-choice"
"""Where the documented client snippets put the path that `client-config` prints in full."""
TOKEN_PLACEHOLDER = "<token>"
"""What the documented snippets for a server over HTTP show for the server's token."""
EXAMPLE_PORT = 8765
"""The port of the documented `serve --http` examples."""


def client_config_output(*arguments: str, capsys: pytest.CaptureFixture[str]) -> str:
    """What `provide-choice client-config ...` prints on stdout, with the placeholders for this
    installation's path and the server's token (given as `$PROVIDE_CHOICE_TOKEN`, so that no token
    file is made)."""
    capsys.readouterr()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PROVIDE_CHOICE_TOKEN", TOKEN_PLACEHOLDER)
        assert provide_choice_cli.main(["client-config", *arguments]) == 0
    return capsys.readouterr().out.replace(server_command()[0], PLACEHOLDER)

"""`provide-choice client-config`: what to paste into an MCP client to start this installation's
server, or to reach one `serve --http` runs (with this machine's token). Where it goes is said on
stderr; stdout is only what to paste."""

from __future__ import annotations

import argparse
import sys
from typing import cast

from provide_choice._commands._running import CommandError


def run_client_config(arguments: argparse.Namespace) -> int:
    from provide_choice._server._client_config import ClientName, Remote, client_config
    from provide_choice._server._token import TokenProblem, server_token

    client, endpoint = arguments.client, arguments.http
    remote = None
    if endpoint is not None:
        try:
            token = server_token()
        except TokenProblem as problem:
            raise CommandError(str(problem)) from None
        remote = Remote(endpoint, token.value)
    config = client_config(cast(ClientName, client), remote)  # one of argparse's choices
    where = "" if remote is None else f" The token is the one in {token.source}."
    print(f"# {config.where}{where}", file=sys.stderr, flush=True)
    print(config.text, flush=True)
    return 0

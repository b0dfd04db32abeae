"""The `web` transport: any `provide_choice` question as a local web page.

`WebTransport` imports no Starlette: the routes (`_routes`) load when the bridge first starts, so a
server that never asks in the browser never pays for them. The page's script, style sheet and HTML
template are package files beside these modules.
"""

from provide_choice._transports._web._transport import WebTransport

__all__ = ["WebTransport"]

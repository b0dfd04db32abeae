"""The local HTTP bridge on 127.0.0.1 that the hand-off and the page share, and what every local
page of this package shares (the question pages and the inbox alike).

- `_bridge`: the bridge itself (`Bridge`, started by the first question that needs it), or the
  routes served on `serve --http`'s own port (`ServedBridge`);
- `_site`: the addresses a server answers to (`PublicUrl`) and the guard that refuses every other
  (`HostGuard`);
- `_local_http`: the body reader, the one refusal shape, the pages' headers, icon and shared style
  sheet (`pages.css`), the pages' words (`words.js`), opening the browser.

"Web" names the page transport only (`provide_choice._transports._web`); this is its carrier.
"""

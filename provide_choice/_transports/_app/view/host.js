// The app's side of MCP Apps: JSON-RPC 2.0 with the host over postMessage (the host is the window
// this frame is drawn in). It sends `ui/initialize` and `ui/notifications/initialized`, answers the
// host's `ping` and `ui/resource-teardown`, hands the host's notifications to `handlers` by method,
// follows the host's theme and style variables, tells `handlers.locale` the host's language (its
// `hostContext.locale`, a language tag) whenever the host says it, and reports the app's size so the
// host fits the frame. Nothing here knows what the app shows.
/* exported connectToHost, documentParsed */

const APPS_PROTOCOL_VERSION = "2026-01-26";
const METHOD_NOT_FOUND = -32601;

// The script runs in the document's head, so that `ui/initialize` is on its way while the rest of
// the document is read: what touches the body waits for this.
const documentParsed = new Promise((resolve) => {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", resolve, { once: true });
  else resolve();
});

// `handlers` maps a notification's method to a function of its params; the returned `request`
// sends to the host and `capabilities()` says what the host takes, once `start()` has resolved.
function connectToHost(appInfo, handlers) {
  const host = window.parent;
  const waiting = new Map();
  let nextId = 1;
  const post = (message) => host.postMessage({ jsonrpc: "2.0", ...message }, "*");
  let hostCapabilities = {};

  const followContext = (changed) => {
    const root = document.documentElement;
    if (changed.theme === "light" || changed.theme === "dark") root.style.colorScheme = changed.theme;
    for (const [name, value] of Object.entries(changed.styles?.variables ?? {})) {
      if (typeof value === "string" && name.startsWith("--")) root.style.setProperty(name, value);
    }
    if (typeof changed.locale === "string") handlers.locale?.(changed.locale);
  };

  window.addEventListener("message", (event) => {
    const message = event.data;
    if (event.source !== host || message?.jsonrpc !== "2.0") return;
    if (message.method === undefined) {
      const pending = waiting.get(message.id);
      if (!pending) return;
      waiting.delete(message.id);
      if (message.error) pending.reject(new Error(message.error.message));
      else pending.resolve(message.result);
    } else if (message.id !== undefined) {
      const known = message.method === "ping" || message.method === "ui/resource-teardown";
      post(known ? { id: message.id, result: {} }
        : { id: message.id, error: { code: METHOD_NOT_FOUND, message: `${message.method} is not handled` } });
    } else if (message.method === "ui/notifications/host-context-changed") {
      followContext(message.params ?? {});
    } else {
      handlers[message.method]?.(message.params ?? {});
    }
  });

  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    post({ id, method, params });
  });
  const notify = (method, params) => post({ method, params });

  return {
    request,
    capabilities: () => hostCapabilities,
    async start() {
      const initialized = await request("ui/initialize", {
        appInfo,
        appCapabilities: {},
        protocolVersion: APPS_PROTOCOL_VERSION,
      });
      hostCapabilities = initialized.hostCapabilities ?? {};
      notify("ui/notifications/initialized", {});
      followContext(initialized.hostContext ?? {});
      documentParsed.then(() => reportSize(notify));
      return initialized;
    },
  };
}

// The height the content needs (not the frame's), and the width it is given, whenever either
// changes: the host sizes the frame from it.
function reportSize(notify) {
  let scheduled = false;
  let width = 0;
  let height = 0;
  const measure = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      const root = document.documentElement;
      const kept = root.style.height;
      root.style.height = "max-content";
      const needed = Math.ceil(root.getBoundingClientRect().height);
      root.style.height = kept;
      const given = Math.ceil(window.innerWidth);
      if (given === width && needed === height) return;
      width = given;
      height = needed;
      notify("ui/notifications/size-changed", { width, height });
    });
  };
  const observer = new ResizeObserver(measure);
  observer.observe(document.documentElement);
  observer.observe(document.body);
  measure();
}

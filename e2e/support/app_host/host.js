// The test host: the official host side of MCP Apps (`AppBridge` over `PostMessageTransport`, from
// @modelcontextprotocol/ext-apps), drawing one app in a sandboxed frame as a conversation would.
// The test drives it through `window.appHost` and reads what the app did from `appHost.record`;
// the app's `tools/call` goes to `window.proxyToolCall(name, arguments)`, which the test exposes
// (the MCP SDK's Python client, connected to our server).
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

const HOST_INFO = { name: "choices-test-host", version: "1.0.0" };

// A host's own colours and fonts, as hosts pass them (`hostContext.styles.variables`).
const STYLE_VARIABLES = {
  light: {
    "--color-background-primary": "#ffffff",
    "--color-background-secondary": "#f5f4ef",
    "--color-background-inverse": "#1f1e1d",
    "--color-text-primary": "#141413",
    "--color-text-secondary": "#5e5d59",
    "--color-text-inverse": "#ffffff",
    "--color-text-danger": "#a8251a",
    "--color-border-primary": "#8c8b86",
    "--color-ring-primary": "#2c6fc2",
    "--font-sans": "system-ui, sans-serif",
    "--border-radius-md": "0.5rem",
  },
  dark: {
    "--color-background-primary": "#262624",
    "--color-background-secondary": "#30302e",
    "--color-background-inverse": "#faf9f5",
    "--color-text-primary": "#faf9f5",
    "--color-text-secondary": "#c2c0b6",
    "--color-text-inverse": "#141413",
    "--color-text-danger": "#ff9d90",
    "--color-border-primary": "#85847e",
    "--color-ring-primary": "#7fb0ee",
    "--font-sans": "system-ui, sans-serif",
    "--border-radius-md": "0.5rem",
  },
};

// `loadingSince` and `inputSentAt`: when the frame last started loading and when the app was last
// sent its tool input (performance.now() of this page).
const record = {
  messages: [], modelContext: [], sizes: [], toolCalls: [], initialized: 0, loadingSince: 0, inputSentAt: 0,
};
let bridge = null;
let frame = null;
let hostContext = {};
let refuseMessages = false;
let failingToolCalls = 0;

function contextFor(theme, toolInfo, locale) {
  const context = {
    theme,
    styles: { variables: STYLE_VARIABLES[theme] },
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    platform: "web",
    locale,
    containerDimensions: { maxHeight: 4000, width: 640 },
  };
  if (toolInfo) context.toolInfo = toolInfo;
  return context;
}

function showTheme(theme) {
  document.documentElement.dataset.theme = theme;
  document.body.style.background = STYLE_VARIABLES[theme]["--color-background-primary"];
}

function newFrame() {
  frame?.remove();
  frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.title = "App";
  document.getElementById("conversation").append(frame);
  return frame;
}

function load(url) {
  record.loadingSince = performance.now();
  frame.src = url;
}

// Draws the app at `url` and resolves once it has initialized (`ui/notifications/initialized`);
// `toolInput` (the call's arguments) is sent to it then, as a host does when it has them already.
// `modelContext: false` mounts a host that does not take `ui/update-model-context`; `locale` is the
// host's language (its `hostContext.locale`).
async function mount(url, { theme = "light", toolInfo = null, modelContext = true, toolInput = null, locale = "en-US" } = {}) {
  newFrame();
  hostContext = contextFor(theme, toolInfo, locale);
  showTheme(theme);
  const capabilities = { serverTools: {}, message: { text: {} }, logging: {} };
  if (modelContext) capabilities.updateModelContext = { text: {} };
  bridge = new AppBridge(null, HOST_INFO, capabilities, { hostContext });
  bridge.onmessage = async (params) => {
    record.messages.push(params);
    return refuseMessages ? { isError: true } : {};
  };
  if (modelContext) {
    bridge.onupdatemodelcontext = async (params) => {
      record.modelContext.push(params);
      return {};
    };
  }
  bridge.oncalltool = async (params) => {
    record.toolCalls.push(params);
    if (failingToolCalls > 0) {
      failingToolCalls -= 1;
      throw new Error("the host lost its connection to the server");
    }
    return window.proxyToolCall(params.name, params.arguments ?? {});
  };
  bridge.onsizechange = ({ height }) => {
    record.sizes.push(height);
    if (height) frame.style.height = `${height}px`;
  };
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = () => {
      record.initialized += 1;
      if (toolInput) {
        record.inputSentAt = performance.now();
        bridge.sendToolInput({ arguments: toolInput });
      }
      resolve();
    };
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  load(url);
  await initialized;
}

// Draws a document that is not an app (no bridge) in the same kind of frame: the benchmark's
// baseline.
function showDocument(url) {
  bridge = null;
  newFrame();
  load(url);
}

window.appHost = {
  record,
  mount,
  showDocument,
  sendToolInput: (args) => bridge.sendToolInput({ arguments: args }),
  sendToolResult: (result) => bridge.sendToolResult(result),
  sendToolCancelled: (reason) => bridge.sendToolCancelled(reason ? { reason } : {}),
  setTheme(theme) {
    hostContext = { ...hostContext, theme, styles: { variables: STYLE_VARIABLES[theme] } };
    showTheme(theme);
    bridge.setHostContext(hostContext);
  },
  refuseMessages(refuse) {
    refuseMessages = refuse;
  },
  failToolCalls(count) {
    failingToolCalls = count;
  },
};

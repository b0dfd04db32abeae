// The carriers between a question and the server. The page's: a WebSocket, or plain HTTP (a POST
// per message, the state polled) when the WebSocket cannot connect or closes while the question is
// pending. Every carrier takes `send(type, data)` and gives the server's messages to
// `received(message)`: {type: "state", state}, {type: "saved", about} (a draft, or an answer) or
// {type: "refused", about, problems, state} (the state when the refusal changed what to show).
// `pollingChannel` carries them over anything that answers one request at a time (HTTP here, the
// host's `tools/call` in the provide_choice app).
/* global words */
/* exported createChannel, pollingChannel */

const POLL_MILLISECONDS = 2000;
const CONNECT_MILLISECONDS = 3000;

// Nothing is opened before `open()`; `isPending()` says whether falling back is still worth it.
function createChannel(base, { received, isPending }) {
  let current = null;
  const fallBack = (queued) => {
    current = pollingChannel(httpExchange(base), received);
    for (const [type, data] of queued) current.send(type, data);
  };
  return {
    open() {
      current = webSocketChannel(base, { received, isPending, fallBack });
    },
    send(type, data) {
      current.send(type, data);
    },
    stop() {
      current?.stop();
    },
  };
}

// Until it connects, messages wait in a queue; `fallBack(queued)` hands them to HTTP.
function webSocketChannel(base, { received, isPending, fallBack }) {
  const queued = [];
  let socket;
  let fellBack = false;
  let stopped = false;
  const giveUpOnSocket = () => {
    if (fellBack || stopped || !isPending()) return;
    fellBack = true;
    fallBack(queued.splice(0));
  };
  try {
    socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${base}/live`);
  } catch {
    return pollingChannel(httpExchange(base), received);
  }
  const giveUp = setTimeout(() => {
    if (socket.readyState === WebSocket.CONNECTING) {
      socket.close();
      giveUpOnSocket();
    }
  }, CONNECT_MILLISECONDS);
  socket.addEventListener("open", () => {
    clearTimeout(giveUp);
    for (const [type, data] of queued.splice(0)) socket.send(JSON.stringify({ type, data }));
  });
  socket.addEventListener("message", (event) => received(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    clearTimeout(giveUp);
    giveUpOnSocket();
  });
  return {
    send(type, data) {
      if (stopped) return;
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type, data }));
      else queued.push([type, data]);
    },
    stop() {
      stopped = true;
      clearTimeout(giveUp);
      if (socket.readyState <= WebSocket.OPEN) socket.close();
    },
  };
}

// `exchange(type, data)` sends one message (type "state" with no data reads the state) and
// resolves with `{ok, body}`: the body holds `state` and, when refused, `problems`.
function pollingChannel(exchange, received) {
  const poll = setInterval(async () => {
    const { ok, body } = await exchange("state");
    // A server away for a moment (or for good, once the question ended) keeps the question shown.
    if (ok) received({ type: "state", state: body.state });
  }, POLL_MILLISECONDS);
  return {
    async send(type, data) {
      const { ok, body } = await exchange(type, data);
      if (!ok) received({ type: "refused", about: type, problems: body.problems, state: body.state });
      else if (type === "draft" || type === "answer") received({ type: "saved", about: type, state: body.state });
      else received({ type: "state", state: body.state });
    },
    stop() {
      clearInterval(poll);
    },
  };
}

function httpExchange(base) {
  return async (type, data) => {
    const reading = type === "state";
    try {
      const response = await fetch(`${base}/${type}`, reading ? { cache: "no-store" } : {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(data),
      });
      const body = await response.json();
      const problems = body.problems || [words().t("server_status", { status: response.status })];
      return { ok: response.status === 200, body: { ...body, problems } };
    } catch {
      return { ok: false, body: { problems: [words().t("server_unreachable")] } };
    }
  };
}

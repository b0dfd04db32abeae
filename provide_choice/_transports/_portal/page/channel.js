// The way to the server: a WebSocket, or plain HTTP (a POST per message, the state polled) when the
// WebSocket cannot connect or closes while the question is pending. Either way the page sends
// `send(type, data)` and gets the server's messages through `received(message)`:
// {type: "state", state}, {type: "saved"} (a draft) or {type: "refused", about, problems}.
/* exported createChannel */

const POLL_MILLISECONDS = 2000;
const CONNECT_MILLISECONDS = 3000;

// Nothing is opened before `open()`; `isPending()` says whether falling back is still worth it.
function createChannel(base, { received, isPending }) {
  let current = null;
  const fallBack = (queued) => {
    current = httpChannel(base, received);
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
    return httpChannel(base, received);
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

function httpChannel(base, received) {
  const poll = setInterval(async () => {
    try {
      const response = await fetch(`${base}/state`, { cache: "no-store" });
      if (response.ok) received({ type: "state", state: (await response.json()).state });
    } catch {
      // The server is away for a moment (or for good, once the question ended): keep the page.
    }
  }, POLL_MILLISECONDS);
  return {
    async send(type, data) {
      let body;
      let status = 0;
      try {
        const response = await fetch(`${base}/${type}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(data),
        });
        status = response.status;
        body = await response.json();
      } catch {
        body = { problems: ["The server cannot be reached; try again in a moment."] };
      }
      if (status === 200) {
        if (type === "draft") received({ type: "saved" });
        received({ type: "state", state: body.state });
      } else {
        received({ type: "refused", about: type, problems: body.problems || [`The server answered ${status}.`] });
        if (body.state) received({ type: "state", state: body.state });
      }
    },
    stop() {
      clearInterval(poll);
    },
  };
}

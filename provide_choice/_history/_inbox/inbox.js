// The inbox: every question waiting in any provide-choice server of this person, and the last ones
// that ended. The server reads the shared history; this page polls it and updates the lists in
// place (keyed by row), so a link keeps its focus while the lists change around it. Agent text
// only ever goes in as text (textContent), never as markup. "I'm away" saves the person's
// away_until setting through the inbox, which every server reads at its next question.
//
// While questions wait, the tab's title starts with how many ("(3) Inbox — provide-choice") and
// its icon has a badge. "Notify me on this device" asks the browser for notifications (only on
// that click), and from then on each question that starts waiting, once it waited
// `alert_after_seconds`, is a notification; a click on one opens its page. Both follow the
// person's settings (the browser's alerts on or off), which the state carries.
"use strict";

(() => {
  const POLL_MILLISECONDS = 1000;
  const URGENT_SECONDS = 30;
  const TICKING = new Set(["seconds_left", "waited_seconds"]); // change at every poll, shown by tick()
  const OUTCOMES = {
    selected: ["Answered", "answered"],
    custom_input: ["Answered", "answered"],
    cancelled: ["Cancelled", ""],
    timeout: ["No answer", ""],
    unattended: ["Nobody was asked", ""],
  };
  const FROM_THE_FILE = ["From the answers file", "answered"];
  const STOPPED = "The inbox stopped; run provide-choice inbox to start it again.";

  const byId = (id) => document.getElementById(id);
  const waitingList = byId("waiting");
  const recentList = byId("recent");
  const count = byId("count");
  const problem = byId("problem");
  const awayStatus = byId("away-status");
  const awayChoice = byId("away-choice");
  const awayButton = byId("away");
  const backButton = byId("back");
  const icon = document.querySelector('link[rel="icon"]');
  const plainIcon = icon.getAttribute("href");
  const notify = byId("notify");
  const notifyButton = byId("notify-button");
  const notifyStatus = byId("notify-status");
  const notifications = "Notification" in window;
  let state = JSON.parse(byId("inbox-state").textContent);
  // The questions already told of (or waiting before notifications were on): told once each.
  const told = new Set();
  let telling = false; // on since the page opened, or since the person's click

  // The address the inbox printed carries its token; the cookie that came with this page stands in
  // for it from now on, so the token leaves the address bar (and the history, bookmarks and screen
  // shares with it).
  const address = new URL(location.href);
  if (address.searchParams.has("token")) {
    address.searchParams.delete("token");
    history.replaceState(history.state, "", address.pathname + address.search + address.hash);
  }
  let syncedAt = performance.now();
  const shownIn = new WeakMap(); // list item -> what it shows now, as JSON

  function text(tag, content, className = "") {
    const node = document.createElement(tag);
    node.textContent = content;
    if (className) node.className = className;
    return node;
  }

  function clock(seconds) {
    const left = Math.max(0, Math.ceil(seconds));
    return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
  }

  function when(iso) {
    const date = new Date(iso);
    const today = date.toDateString() === new Date().toDateString();
    const options = today ? { hour: "2-digit", minute: "2-digit" }
      : { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" };
    return date.toLocaleString([], options);
  }

  // One list item per question, rebuilt only when what it shows changed.

  function waitingItem(question) {
    const heading = document.createElement("h3");
    heading.className = "item-title";
    if (question.url) {
      const link = text("a", question.title);
      link.href = question.url;
      heading.append(link);
    } else {
      heading.textContent = question.title;
    }
    const meta = document.createElement("p");
    meta.className = "meta";
    meta.append(text("span", question.client || "Unnamed client"));
    if (question.where) meta.append(text("span", question.where));
    const left = text("span", "", "time-left");
    left.dataset.secondsLeft = question.seconds_left;
    meta.append(left);
    return [heading, meta];
  }

  function recentItem(question) {
    const [label, kind] = question.answered_by === "answers_file" ? FROM_THE_FILE
      : OUTCOMES[question.action_status] || ["Ended", ""];
    const meta = document.createElement("p");
    meta.className = "meta";
    meta.append(
      text("span", label, `outcome ${kind}`.trim()),
      text("span", question.client || "Unnamed client"),
      text("span", question.transport_label),
    );
    if (question.ended_at) {
      const time = text("time", when(question.ended_at));
      time.dateTime = question.ended_at;
      meta.append(time);
    }
    const parts = [text("h3", question.title, "item-title"), meta];
    if (question.summary) parts.push(text("p", question.summary, "summary"));
    return parts;
  }

  function renderList(list, questions, build) {
    const existing = new Map([...list.children].map((item) => [item.dataset.key, item]));
    const keys = new Set(questions.map((question) => String(question.key)));
    for (const [key, item] of existing) {
      if (keys.has(key)) continue;
      // A focused question that leaves: focus goes to its list's heading, not to the page's top.
      if (item.contains(document.activeElement)) list.closest("section").querySelector("h2").focus();
      item.remove();
    }
    questions.forEach((question, index) => {
      const key = String(question.key);
      const shown = JSON.stringify(question, (name, value) => (TICKING.has(name) ? undefined : value));
      let item = existing.get(key);
      if (!item || !item.isConnected) {
        item = document.createElement("li");
        item.className = "card";
        item.dataset.key = key;
      }
      if (shownIn.get(item) !== shown) {
        shownIn.set(item, shown);
        item.replaceChildren(...build(question));
      }
      const left = item.querySelector(".time-left");
      if (left) left.dataset.secondsLeft = question.seconds_left;
      if (list.children[index] !== item) list.insertBefore(item, list.children[index] || null);
    });
    byId(`${list.id}-empty`).hidden = questions.length > 0;
  }

  function tick() {
    const elapsed = (performance.now() - syncedAt) / 1000;
    for (const left of waitingList.querySelectorAll(".time-left")) {
      const seconds = Number(left.dataset.secondsLeft) - elapsed;
      left.textContent = clock(seconds);
      left.classList.toggle("urgent", seconds <= URGENT_SECONDS);
    }
  }

  function renderAway() {
    const until = state.away_until;
    const words = until
      ? `Away until ${until} (local time): every question is answered at once, shown nowhere, saying you are away.`
      : "Here: questions are asked as usual. While you are away, each is answered at once, saying so.";
    if (awayStatus.textContent !== words) awayStatus.textContent = words;
    awayChoice.hidden = Boolean(until);
    backButton.hidden = !until;
  }

  async function setAway(minutes) {
    try {
      const response = await fetch("/away", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ away_for_minutes: minutes }),
      });
      const body = await response.json();
      if (response.ok) {
        state = body.state;
        syncedAt = performance.now();
      } else {
        state = { ...state, problem: body.problems.join(" ") };
      }
    } catch {
      state = { ...state, problem: STOPPED };
    }
    render();
    // The button pressed is gone now: the one that undoes it takes the focus.
    (state.away_until ? backButton : awayButton).focus();
  }

  function render() {
    renderAway();
    renderList(waitingList, state.waiting, waitingItem);
    renderList(recentList, state.recent, recentItem);
    const waiting = state.waiting.length;
    const words = waiting === 0 ? "Nothing waiting" : `${waiting} waiting`;
    if (count.textContent !== words) count.textContent = words;
    const shown = state.alerts.browser ? waiting : 0;
    document.title = `${shown ? `(${shown}) ` : ""}Inbox — provide-choice`;
    const href = shown ? icon.dataset.waiting : plainIcon;
    if (icon.getAttribute("href") !== href) icon.setAttribute("href", href);
    tellOfNew();
    if (problem.textContent !== (state.problem || "")) problem.textContent = state.problem || "";
    tick();
  }

  async function poll() {
    try {
      const response = await fetch("/state", { cache: "no-store" });
      if (response.status === 403) {
        // No token any more (the inbox restarted with a new one): the server says what to do.
        state = { ...state, problem: (await response.json()).problems.join(" ") };
        render();
        return;
      }
      if (!response.ok) throw new Error(`status ${response.status}`);
      state = (await response.json()).state;
      syncedAt = performance.now();
    } catch {
      state = { ...state, problem: STOPPED };
    }
    render();
  }

  awayButton.addEventListener("click", () => setAway(Number(byId("away-for").value)));
  backButton.addEventListener("click", () => setAway(null));

  function allowed() {
    return notifications && Notification.permission === "granted";
  }

  // Questions waiting when notifications come on were there to see: only later ones are told of.
  function markAllTold() {
    for (const question of state.waiting) told.add(question.key);
  }

  function tellOfNew() {
    notify.hidden = !notifications || !state.alerts.browser;
    if (!telling || !allowed() || !state.alerts.browser) return;
    for (const question of state.waiting) {
      if (told.has(question.key) || question.waited_seconds < state.alerts.after_seconds) continue;
      told.add(question.key);
      const shown = new Notification("Question waiting", { body: question.title, tag: `question-${question.key}` });
      shown.addEventListener("click", () => {
        window.focus();
        if (question.url) location.assign(question.url);
      });
    }
  }

  function showPermission() {
    const granted = allowed();
    notifyButton.hidden = granted;
    notifyStatus.textContent = granted ? "Notifications are on for this device: each new question is one."
      : notifications && Notification.permission === "denied"
        ? "This browser blocks notifications from the inbox; allow them in its site settings."
        : "";
  }

  function startTelling() {
    markAllTold();
    telling = true;
  }

  notifyButton.addEventListener("click", async () => {
    await Notification.requestPermission();
    if (allowed()) startTelling();
    showPermission();
  });

  if (allowed()) startTelling();
  showPermission();
  render();
  setInterval(tick, 1000);
  setInterval(poll, POLL_MILLISECONDS);
})();

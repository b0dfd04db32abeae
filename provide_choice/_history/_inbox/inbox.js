// The inbox: every question waiting in any provide-choice server of this person, and the last ones
// that ended. The server reads the shared history; this page polls it and updates the lists in
// place (keyed by row), so a link keeps its focus while the lists change around it. Agent text
// only ever goes in as text (textContent), never as markup. Its words (messages.json beside it) are
// in the language the state names, and so are the dates the server wrote in it. "I'm away" saves
// the person's away_until setting through the inbox, which every server reads at its next question.
//
// While questions wait, the tab's title starts with how many ("(3) Inbox — provide-choice") and
// its icon has a badge. "Notify me on this device" asks the browser for notifications (only on
// that click), and from then on each question that starts waiting, once it waited
// `alert_after_seconds`, is a notification; a click on one opens its page. Both follow the
// person's settings (the browser's alerts on or off), which the state carries.
/* global speak, words */

const POLL_MILLISECONDS = 1000;
const URGENT_SECONDS = 30;
const TICKING = new Set(["seconds_left", "waited_seconds"]); // change at every poll, shown by tick()
const OUTCOMES = {
  selected: ["answered", "answered"],
  custom_input: ["answered", "answered"],
  cancelled: ["cancelled", ""],
  timeout: ["no_answer", ""],
  unattended: ["nobody_asked", ""],
};
const FROM_THE_FILE = ["from_answers_file", "answered"];

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
  return words().t("time_left", { time: words().clock(left) });
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
  meta.append(text("span", question.client || words().t("unnamed_client")));
  if (question.where) meta.append(text("span", question.where));
  const left = text("span", "", "time-left");
  left.dataset.secondsLeft = question.seconds_left;
  meta.append(left);
  return [heading, meta];
}

function recentItem(question) {
  const [label, kind] = question.answered_by === "answers_file" ? FROM_THE_FILE
    : OUTCOMES[question.action_status] || ["ended", ""];
  const meta = document.createElement("p");
  meta.className = "meta";
  meta.append(
    text("span", words().t(label), `outcome ${kind}`.trim()),
    text("span", question.client || words().t("unnamed_client")),
    text("span", question.transport_label),
  );
  if (question.ended_at) {
    const time = text("time", question.ended_at_text);
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
    const shown = JSON.stringify([words().tag, question], (name, value) => (TICKING.has(name) ? undefined : value));
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
  const said = until ? words().t("away_until", { time: until }) : words().t("here");
  if (awayStatus.textContent !== said) awayStatus.textContent = said;
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
    state = { ...state, problem: words().t("stopped") };
  }
  render();
  // The button pressed is gone now: the one that undoes it takes the focus.
  (state.away_until ? backButton : awayButton).focus();
}

function render() {
  speak(state.language);
  renderAway();
  renderList(waitingList, state.waiting, waitingItem);
  renderList(recentList, state.recent, recentItem);
  const waiting = state.waiting.length;
  const said = waiting === 0 ? words().t("count_none") : words().n("count", waiting);
  if (count.textContent !== said) count.textContent = said;
  const shown = state.alerts.browser ? waiting : 0;
  document.title = shown ? words().t("title_waiting", { count: shown }) : words().t("title");
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
    state = { ...state, problem: words().t("stopped") };
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
    const shown = new Notification(words().t("question_waiting"), { body: question.title, tag: `question-${question.key}` });
    shown.addEventListener("click", () => {
      window.focus();
      if (question.url) location.assign(question.url);
    });
  }
}

function showPermission() {
  const granted = allowed();
  notifyButton.hidden = granted;
  notifyStatus.textContent = granted ? words().t("notifications_on")
    : notifications && Notification.permission === "denied" ? words().t("notifications_blocked") : "";
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

// The provide-choice page: shows one question, keeps the person's draft on the server, sends the
// answer. Agent text only ever goes into the page as text (textContent, value), never as markup.
// The server holds the truth (status, time left, settings, the rules an answer follows); the page
// follows its state messages, over a WebSocket, or by plain HTTP when the WebSocket cannot connect.
//
// This part joins the others: it holds the server's latest state (the parts read it through
// `currentState()` and never change it) and hands each message from the server to the part it is
// for. The parts: dom.js (helpers), answer.js (the answer and its rules), questions.js (one
// question or a batch's several), preview.js (the Preview region), keys.js (the filter and the
// number keys), options.js and form.js (the question form), settings.js (the settings panel),
// countdown.js, channel.js.
/* global byId, createForm, createSettingsPanel, createCountdown, createChannel */

const ENDINGS = {
  answered: "Answer sent, you can close this tab",
  cancelled: "Cancelled",
  cancelled_by_agent: "Cancelled by the agent",
  timeout: "Timed out",
};
const AFTER_ENDING = "You can close this tab.";
const TICK_MILLISECONDS = 250;

let state = JSON.parse(byId("question-state").textContent);
const currentState = () => state;
const isPending = () => state.status === "pending";
const channel = createChannel(location.pathname.replace(/\/+$/, ""), { received, isPending });
const send = (type, data) => channel.send(type, data);
const settings = createSettingsPanel(currentState, send);
const form = createForm(currentState, send);
const countdown = createCountdown(byId("countdown"));
const inboxLink = byId("inbox-link");

function applyState(next) {
  state = next;
  countdown.sync(state.seconds_left);
  // The inbox, when one runs: back to every question waiting, from every agent.
  inboxLink.hidden = !state.inbox_url;
  if (state.inbox_url) inboxLink.href = state.inbox_url;
  if (!isPending()) {
    showEnding();
    return;
  }
  form.render();
  settings.update();
  countdown.tick();
}

function showEnding() {
  const questionForm = byId("question-form");
  if (!questionForm.hidden) {
    questionForm.hidden = true;
    byId("settings").hidden = true;
    byId("countdown").hidden = true;
    const ended = byId("ended");
    byId("ended-title").textContent = ENDINGS[state.status];
    const summary = state.summary ? `${state.summary} ` : "";
    byId("ended-summary").textContent = state.status === "answered" ? summary : summary + AFTER_ENDING;
    ended.hidden = false;
    ended.focus();
  }
  channel.stop();
}

function received(message) {
  if (message.type === "state") applyState(message.state);
  else if (message.type === "saved") form.saved();
  else if (message.type === "refused") {
    if (message.about === "settings" || message.about === "visibility") settings.refused(message.problems);
    else form.refused(message.problems);
  }
}

applyState(state);
if (isPending()) {
  channel.open();
  setInterval(countdown.tick, TICK_MILLISECONDS);
}

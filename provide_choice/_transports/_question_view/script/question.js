// One question, shown and answered: the server holds the truth (status, time left, settings, the
// rules an answer follows) and this part follows its state messages, whatever carries them (the
// page's WebSocket or HTTP, the provide_choice app's calls through its host). Agent text only ever
// goes in as text (textContent, value).
//
// This part joins the others: it holds the server's latest state (the parts read it through
// `currentState()` and never change it) and hands each message from the server to the part it is
// for. The parts: dom.js (helpers), answer.js (the answer and its rules), questions.js (one
// question or a batch's several), preview.js (the Preview region), keys.js (the filter and the
// number keys), options.js and form.js (the question form), settings.js (the settings panel),
// countdown.js, channel.js (the carriers).
/* global byId, createForm, createSettingsPanel, createCountdown, speak, words */
/* exported startQuestion */

const TICK_MILLISECONDS = 250;
const HOLD_MILLISECONDS = 3000;

// `openChannel({received, isPending})` makes the carrier (`open()`, `send(type, data)`, `stop()`);
// `endings` says each way the question can end, `afterEnding` what follows unless answered, `saved`
// what a saved draft means where the question is shown (each the key of a message of the page's
// words; `afterEnding` may be null), `ended(state)` hears the ending once it is shown, and
// `followed(state)` every state the view follows (the page's tab follows them too). The page
// speaks the language the state names. Returns `received`, through which the owner of the
// document may also end it (a state whose status is not "pending").
function startQuestion(
  initial,
  openChannel,
  { endings, afterEnding, saved, ended: onEnded = () => {}, followed = () => {} },
) {
  let state = initial;
  const currentState = () => state;
  const isPending = () => state.status === "pending";
  const channel = openChannel({ received, isPending });
  const send = (type, data) => {
    if (type === "answer") answering = true;
    channel.send(type, data);
  };
  const settings = createSettingsPanel(currentState, send);
  const form = createForm(currentState, send);
  const countdown = createCountdown(byId("countdown"));
  const inboxLink = byId("inbox-link");
  const storeProblem = byId("store-problem");
  let ended = false; // an ending is final, whatever arrives after it
  // While this view's answer is on its way, an ending waits for its reply: another page of the
  // question (on another server sharing it) may have answered first, and then this one says so.
  let answering = false;
  let heldEnding = null;
  let late = false;

  function applyState(next) {
    if (ended) return;
    state = next;
    if (speak(state.language) && state.intro_html) byId("question-prompt").innerHTML = state.intro_html;
    followed(state);
    countdown.sync(state.seconds_left);
    // The inbox, when one runs: back to every question waiting, from every agent.
    inboxLink.hidden = !state.inbox_url;
    if (state.inbox_url) inboxLink.href = state.inbox_url;
    // Several servers keep their questions in one store: while it is away, nothing can be sent.
    storeProblem.hidden = !state.store_problem;
    storeProblem.textContent = state.store_problem
      ? words().t("store_problem", { problem: state.store_problem })
      : "";
    if (!isPending()) {
      ended = true;
      showEnding();
      return;
    }
    form.render();
    settings.update();
    countdown.tick();
  }

  function showEnding() {
    byId("question-form").hidden = true;
    byId("settings").hidden = true;
    byId("countdown").hidden = true;
    const ending = byId("ended");
    byId("ended-title").textContent = words().t(endings[late && state.status === "answered" ? "already_answered" : state.status]);
    const summary = state.summary ? `${state.summary} ` : "";
    const after = afterEnding && state.status !== "answered" ? words().t(afterEnding) : "";
    byId("ended-summary").textContent = (summary + after).trim();
    ending.hidden = false;
    ending.focus();
    channel.stop();
    onEnded(state);
  }

  function stateReceived(next) {
    if (!answering || next.status === "pending") {
      applyState(next);
      return;
    }
    heldEnding = next;
    // A reply lost with its carrier (a server stopped) leaves nothing to tell: show it as it is.
    setTimeout(() => answering && answerReplied(false), HOLD_MILLISECONDS);
  }

  function answerReplied(refused) {
    answering = false;
    const ending = heldEnding;
    heldEnding = null;
    late = refused;
    if (ending) applyState(ending);
  }

  function received(message) {
    if (message.state) stateReceived(message.state);
    if (message.type === "saved") {
      if (message.about === "answer") answerReplied(false);
      else form.saved(words().t(saved));
    } else if (message.type === "refused") {
      if (message.about === "answer") answerReplied(true);
      if (message.about === "settings" || message.about === "visibility") settings.refused(message.problems);
      else form.refused(message.problems);
    }
  }

  applyState(initial);
  if (isPending()) {
    channel.open();
    setInterval(countdown.tick, TICK_MILLISECONDS);
  }
  return received;
}

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
/* global byId, createForm, createSettingsPanel, createCountdown */
/* exported startQuestion */

const TICK_MILLISECONDS = 250;

// `openChannel({received, isPending})` makes the carrier (`open()`, `send(type, data)`, `stop()`);
// `endings` says each way the question can end, `afterEnding` what follows unless answered, `saved`
// what a saved draft means where the question is shown, `ended(state)` hears the ending once it is
// shown, and `followed(state)` every state the view follows (the page's tab follows them too).
// Returns `received`, through which the owner of the document may also end it (a state whose
// status is not "pending").
function startQuestion(
  initial,
  openChannel,
  { endings, afterEnding, saved, ended: onEnded = () => {}, followed = () => {} },
) {
  let state = initial;
  const currentState = () => state;
  const isPending = () => state.status === "pending";
  const channel = openChannel({ received, isPending });
  const send = (type, data) => channel.send(type, data);
  const settings = createSettingsPanel(currentState, send);
  const form = createForm(currentState, send);
  const countdown = createCountdown(byId("countdown"));
  const inboxLink = byId("inbox-link");
  let ended = false; // an ending is final, whatever arrives after it

  function applyState(next) {
    if (ended) return;
    state = next;
    followed(state);
    countdown.sync(state.seconds_left);
    // The inbox, when one runs: back to every question waiting, from every agent.
    inboxLink.hidden = !state.inbox_url;
    if (state.inbox_url) inboxLink.href = state.inbox_url;
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
    byId("ended-title").textContent = endings[state.status];
    const summary = state.summary ? `${state.summary} ` : "";
    byId("ended-summary").textContent = state.status === "answered" ? summary : summary + afterEnding;
    ending.hidden = false;
    ending.focus();
    channel.stop();
    onEnded(state);
  }

  function received(message) {
    if (message.type === "state") applyState(message.state);
    else if (message.type === "saved") form.saved(saved);
    else if (message.type === "refused") {
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

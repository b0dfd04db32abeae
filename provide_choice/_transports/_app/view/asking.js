// The provide_choice app: the question the page shows, drawn by the page's own parts (question.js
// and the parts it joins), carried by the host instead of a WebSocket: every message is a call of
// the app-only tool `provide_choice_app` through the host's `tools/call`. The question is found
// from the call's arguments (the tool input), so no host needs to say which call this is.
//
// How it can end besides the question's own state: the host cancels the call
// (`ui/notifications/tool-cancelled`), or the call's result says it ended while this view was not
// looking. Once it has ended, the one-line summary also goes into the model's context where the host
// takes it (`ui/update-model-context`), so the model sees it even if it stopped polling.
//
// Its words (the messages of _app/messages.json and the question view's) are in the host's language
// (`hostContext.locale`) until the server's state names the person's, which their setting may set.
/* global byId, connectToHost, documentParsed, startQuestion, pollingChannel, speak, words,
   languageFor */

const APP_TOOL = "provide_choice_app";
const APP_ENDINGS = {
  answered: "answered",
  already_answered: "already_answered",
  cancelled: "cancelled",
  cancelled_by_agent: "cancelled_by_agent",
  timeout: "timeout",
  cancelled_by_host: "cancelled_by_host",
  shown_nowhere: "shown_nowhere",
};
const RETRY_MILLISECONDS = 2000;
const RESULT_ENDINGS = { selected: "answered", custom_input: "answered", cancelled: "cancelled", timeout: "timeout" };

let receive = null; // the question's `received`, once it is shown
let opening = false;
let over = false; // ended before it was shown: whatever `open` finds comes too late
let locale = null; // the host's, sent with every message: the server says the person's language

const host = connectToHost({ name: "provide-choice", version: "1.0.0" }, {
  "ui/notifications/tool-input": (params) => documentParsed.then(() => openQuestion(params.arguments ?? {})),
  "ui/notifications/tool-result": (result) => documentParsed.then(() => followResult(result)),
  "ui/notifications/tool-cancelled": () => documentParsed.then(() => end({ status: "cancelled_by_host", summary: null })),
  // What this view says before the question comes (waiting, a server it cannot reach) is in the
  // host's language; then the server's state names the person's.
  locale: (tag) => {
    locale = tag;
    documentParsed.then(() => {
      if (!receive) speak(languageFor([tag]));
    });
  },
});

const callAppTool = (args) => host.request("tools/call", { name: APP_TOOL, arguments: { ...args, locale } });

const textOf = (result) => (result.content ?? []).filter((part) => part.type === "text").map((part) => part.text);

// One message to the server and its reply, as `pollingChannel` takes them.
function exchangeWith(questionId) {
  return async (type, data) => {
    try {
      const result = await callAppTool({ type, question_id: questionId, data: data ?? null });
      const body = result.structuredContent ?? {};
      return { ok: !result.isError, body: { ...body, problems: body.problems ?? textOf(result) } };
    } catch {
      return { ok: false, body: { problems: [words().t("unreachable_now")] } };
    }
  };
}

function say(line) {
  const waiting = byId("waiting");
  delete waiting.dataset.words; // what it says now is no longer the waiting line
  waiting.textContent = line;
}

async function openQuestion(toolInput) {
  if (receive || opening || over) return;
  opening = true;
  let result;
  try {
    result = await callAppTool({ type: "open", arguments: toolInput });
  } catch {
    // The host could not pass the call on (its connection to the server dropped, say): look
    // again in a moment, while the question may still be open.
    say(words().t("unreachable"));
    setTimeout(() => openQuestion(toolInput), RETRY_MILLISECONDS);
    return;
  } finally {
    opening = false;
  }
  if (over) return;
  const reply = result.structuredContent ?? {};
  if (result.isError || !reply.state) {
    say((reply.problems ?? textOf(result)).join("\n"));
    return;
  }
  byId("question-title").textContent = reply.title;
  byId("ended-question").textContent = reply.title;
  // The prompt as the server's one markdown renderer made it: agent markup in it is escaped there.
  byId("question-prompt").innerHTML = reply.prompt_html;
  byId("waiting").hidden = true;
  byId("question").hidden = false;
  const exchange = exchangeWith(reply.question_id);
  let polling = null;
  const channel = ({ received }) => ({
    open: () => {
      polling = pollingChannel(exchange, received);
    },
    send: (type, data) => polling.send(type, data),
    stop: () => polling?.stop(),
  });
  receive = startQuestion(reply.state, channel, {
    endings: APP_ENDINGS,
    afterEnding: null,
    saved: "draft_saved",
    ended: tellTheModel,
  });
}

// An ending the question's state did not bring (the call cancelled or finished meanwhile): shown,
// and no more answers taken.
function end(ending) {
  over = true;
  if (receive) receive({ type: "state", state: { ...ending, seconds_left: 0 } });
  else if (ending.summary) say(words().t("ended", { ending: words().t(APP_ENDINGS[ending.status]), summary: ending.summary }));
  else say(words().t(APP_ENDINGS[ending.status]));
}

function followResult(result) {
  // Answered before anyone was asked (the answers file, or nobody: unattended, away).
  const nowhere = result.structuredContent?.answered_by === "answers_file"
    || result.structuredContent?.action_status === "unattended";
  const status = nowhere ? "shown_nowhere" : RESULT_ENDINGS[result.structuredContent?.action_status];
  if (result.isError && !receive) {
    over = true; // the call was refused: nothing was asked
    say(textOf(result).join("\n"));
  } else if (status) end({ status, summary: result.structuredContent.selection?.summary ?? null });
}

function tellTheModel(state) {
  if (!state.summary || !host.capabilities().updateModelContext) return;
  host.request("ui/update-model-context", { content: [{ type: "text", text: state.summary }] }).catch(() => {});
}

host.start();

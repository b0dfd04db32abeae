// The provide-choice page: shows one question (question.js), keeps the person's draft on the
// server, sends the answer. Its first state comes inline with the page; the server's messages come
// over a WebSocket, or by plain HTTP when the WebSocket cannot connect (channel.js). Its words are
// the messages of _web/messages.json (by key), in the language the state names.
/* global byId, startQuestion, createChannel, tabAlert */

const ENDINGS = {
  answered: "answered",
  already_answered: "already_answered",
  cancelled: "cancelled",
  cancelled_by_agent: "cancelled_by_agent",
  timeout: "timeout",
};

startQuestion(
  JSON.parse(byId("question-state").textContent),
  (handlers) => createChannel(location.pathname.replace(/\/+$/, ""), handlers),
  {
    endings: ENDINGS,
    afterEnding: "after_ending",
    saved: "draft_saved",
    followed: tabAlert(),
  },
);

// The provide-choice page: shows one question (question.js), keeps the person's draft on the
// server, sends the answer. Its first state comes inline with the page; the server's messages come
// over a WebSocket, or by plain HTTP when the WebSocket cannot connect (channel.js).
/* global byId, startQuestion, createChannel, tabAlert */

const ENDINGS = {
  answered: "Answer sent, you can close this tab",
  already_answered: "Already answered: your answer was not sent",
  cancelled: "Cancelled",
  cancelled_by_agent: "Cancelled by the agent",
  timeout: "Timed out",
};

startQuestion(
  JSON.parse(byId("question-state").textContent),
  (handlers) => createChannel(location.pathname.replace(/\/+$/, ""), handlers),
  {
    endings: ENDINGS,
    afterEnding: "You can close this tab.",
    saved: "Saved: closing this tab loses nothing.",
    followed: tabAlert(),
  },
);

// The questions a page shows: one, or a batch of several answered at once. Each question is drawn
// from a view of the server's state (the page's state with that question's own fields over it), so
// the parts that draw one question (options.js, form.js) never ask which kind of page they are on.
// A batch's draft holds each question's draft by its id, and the overall note once.
/* global submissionFromDraft, refusal, words */
/* exported questionViews, questionDraft, pageSubmission, pageRefusal */

function isBatch(state) {
  return Array.isArray(state.questions);
}

// One view per question: the state itself for a single question.
function questionViews(state) {
  if (!isBatch(state)) return [state];
  return state.questions.map((question) => ({ ...state, ...question }));
}

function questionDraft(view, draft) {
  return isBatch(view) ? draft.answers[view.id] : draft;
}

// What the page sends when the person submits: a question's submission, or a batch's.
function pageSubmission(state, draft) {
  if (!isBatch(state)) return submissionFromDraft(state, draft);
  const answers = {};
  for (const view of questionViews(state)) {
    answers[view.id] = { ...submissionFromDraft(view, questionDraft(view, draft)), global_annotation: null };
  }
  const note = state.notes ? draft.global_annotation.trim() : "";
  return { kind: "answered_batch", answers, global_annotation: note || null };
}

// Why the page cannot be sent yet, or null: in a batch, the first question that cannot, by its name.
function pageRefusal(state, submission) {
  if (!isBatch(state)) return refusal(state, submission);
  for (const view of questionViews(state)) {
    const reason = refusal(view, submission.answers[view.id]);
    if (reason !== null) return words().t("question_refusal", { question: view.name, reason });
  }
  return null;
}

// What the person did, as the server takes it, and why it cannot be sent yet. The page reports
// facts (what is chosen, what is typed, whether the empty field showed the suggestion); the rules
// are the server's, from its state: when an empty field sends the suggestion (placeholder_rule),
// and why an answer of each count cannot be sent, with and without an own answer (refusals).
// tests/provide_choice/test_answer_script.py runs these functions in Node against the server's.
/* global words */
/* exported visibleOptions, takesText, submissionFromDraft, refusal */

function visibleOptions(state) {
  return state.options.filter((option) => !state.hidden_ids.includes(option.id));
}

function takesText(state) {
  return state.mode === "text_input" || state.mode === "hybrid";
}

function submissionFromDraft(state, draft) {
  const visible = visibleOptions(state).map((option) => option.id);
  const typed = takesText(state) ? draft.custom_input.trim() : "";
  const submission = {
    kind: "answered",
    selected_ids: visible.filter((id) => draft.selected_ids.includes(id)),
    custom_input: typed || null,
    placeholder_shown: takesText(state) && !typed && state.placeholder !== null,
    option_annotations: {},
    global_annotation: null,
  };
  if (state.notes) {
    for (const id of visible) {
      const note = (draft.option_annotations[id] || "").trim();
      if (note) submission.option_annotations[id] = note;
    }
    submission.global_annotation = draft.global_annotation.trim() || null;
  }
  return submission;
}

// Whether the submission carries an own answer: typed text, or the shown suggestion where the
// server's rule says the empty field sends it.
function hasOwnAnswer(state, submission) {
  if (submission.custom_input !== null) return true;
  if (!submission.placeholder_shown) return false;
  const rule = state.placeholder_rule;
  return rule === "always" || (rule === "when_nothing_chosen" && !submission.selected_ids.length);
}

// Why this submission cannot be sent, or null when it can.
function refusal(state, submission) {
  const ownAnswer = hasOwnAnswer(state, submission);
  if (state.mode === "text_input") return ownAnswer ? null : words().t("type_to_submit");
  const byCount = ownAnswer ? state.refusals.with_own_answer : state.refusals.options_only;
  return byCount[submission.selected_ids.length] ?? null;
}

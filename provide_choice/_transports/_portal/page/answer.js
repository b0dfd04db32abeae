// The answer the draft makes, and why it cannot be sent yet. The rules are the server's: its state
// says how many options an answer may hold with and without an own answer typed, and how to say it.
/* exported visibleOptions, takesText, answerFromDraft, refusal */

function visibleOptions(state) {
  return state.options.filter((option) => !state.hidden_ids.includes(option.id));
}

function takesText(state) {
  return state.mode === "text_input" || state.mode === "hybrid";
}

function answerFromDraft(state, draft) {
  const visible = visibleOptions(state).map((option) => option.id);
  const selected = visible.filter((id) => draft.selected_ids.includes(id));
  let customInput = null;
  let placeholderUsed = false;
  if (takesText(state)) {
    const typed = draft.custom_input.trim();
    // An empty field stands for the shown suggestion; in hybrid only when nothing is chosen.
    if (typed) customInput = typed;
    else if (state.placeholder !== null && (state.mode === "text_input" || !selected.length)) {
      customInput = state.placeholder;
      placeholderUsed = true;
    }
  }
  const answer = {
    kind: "answered",
    selected_ids: selected,
    custom_input: customInput,
    placeholder_used: placeholderUsed,
    option_annotations: {},
    global_annotation: null,
  };
  if (state.notes) {
    for (const id of visible) {
      const note = (draft.option_annotations[id] || "").trim();
      if (note) answer.option_annotations[id] = note;
    }
    answer.global_annotation = draft.global_annotation.trim() || null;
  }
  return answer;
}

// Why this answer cannot be sent, or null when it can.
function refusal(state, answer) {
  if (state.mode === "text_input") {
    return answer.custom_input === null ? "Type an answer to submit." : null;
  }
  const rules = state.selection_rules;
  const rule = answer.custom_input === null ? rules.options_only : rules.with_own_answer;
  const count = answer.selected_ids.length;
  if (count >= rule.minimum && count <= rule.maximum) return null;
  return `Choose ${rule.text} to submit (${count} chosen).`;
}

// The question form: the options, the own answer and the notes, drawn from the server's state; the
// draft they edit, saved on the server as it changes; the answer or the cancel, sent once.
// `currentState()` is the server's latest state; `send(type, data)` goes out on the channel.
/* global byId, element, text, visibleOptions, takesText, submissionFromDraft, refusal, optionList */
/* exported createForm */

const TYPING_MILLISECONDS = 300;

function createForm(currentState, send) {
  const form = byId("question-form");
  const fields = byId("answer-fields");
  const submitButton = byId("submit-button");
  const submitReason = byId("submit-reason");
  const problems = byId("problems");
  const draftStatus = byId("draft-status");
  const draft = structuredClone(currentState().draft);
  const actions = { changed: draftChanged, submit: submitAnswer };
  let renderedShape = null;
  let sending = false;
  let typingTimer = null;

  // Drawn again only when what the form holds changed, so a state push keeps focus and typing.
  function render() {
    const state = currentState();
    const shape = JSON.stringify([
      state.mode, state.hidden_ids, state.notes, state.placeholder, state.submits_on_selection,
    ]);
    if (shape === renderedShape) return;
    renderedShape = shape;
    const visible = visibleOptions(state);
    draft.selected_ids = draft.selected_ids.filter((id) => visible.some((option) => option.id === id));
    const parts = [];
    if (visible.length) {
      parts.push(text("p", state.instruction, { class: "hint" }), optionList(state, visible, draft, actions));
    }
    if (takesText(state)) parts.push(textAnswer(state, draft, actions));
    if (state.notes) parts.push(overallNote(state, draft, actions));
    fields.replaceChildren(...parts);
    submitButton.hidden = state.submits_on_selection;
    updateSubmit();
  }

  function updateSubmit() {
    const state = currentState();
    const reason = refusal(state, submissionFromDraft(state, draft));
    submitButton.disabled = sending || reason !== null;
    submitReason.textContent = state.submits_on_selection ? "" : reason || "";
  }

  function showProblems(list) {
    problems.replaceChildren(...list.map((problem) => text("p", problem)));
  }

  function draftChanged(typing = false) {
    updateSubmit();
    // Once the answer is on its way it carries the choices; a draft after it would be refused.
    if (sending) return;
    showProblems([]);
    draftStatus.textContent = "Saving…";
    clearTimeout(typingTimer);
    const sendDraft = () => send("draft", draft);
    if (typing) typingTimer = setTimeout(sendDraft, TYPING_MILLISECONDS);
    else sendDraft();
  }

  function submitAnswer() {
    const state = currentState();
    if (sending || state.status !== "pending") return;
    const answer = submissionFromDraft(state, draft);
    const reason = refusal(state, answer);
    if (reason !== null) {
      showProblems([reason]);
      return;
    }
    sending = true;
    updateSubmit();
    send("answer", answer);
  }

  // The Submit button sends by itself, not through the form's submission, which a sandboxed frame
  // without `allow-forms` (a host drawing the provide_choice app may give none) blocks outright.
  // The form's own submission is still what Enter in a field starts.
  submitButton.addEventListener("click", (event) => {
    event.preventDefault();
    submitAnswer();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submitAnswer();
  });

  byId("cancel-button").addEventListener("click", () => {
    if (currentState().status !== "pending") return;
    sending = true;
    updateSubmit();
    send("answer", { kind: "cancelled" });
  });

  return {
    render,
    saved() {
      draftStatus.textContent = "Saved: closing this tab loses nothing.";
    },
    refused(list) {
      sending = false;
      showProblems(list);
      updateSubmit();
    },
  };
}

function textAnswer(state, draft, { changed, submit }) {
  const label = state.mode === "text_input" ? "Your answer" : "Or type your own answer";
  const area = element("textarea", { id: "own-answer", rows: 3, maxlength: state.text_limit });
  area.value = draft.custom_input;
  const parts = [text("label", label, { for: "own-answer" }), area];
  if (state.placeholder !== null) {
    area.placeholder = state.placeholder;
    const hint = state.mode === "text_input"
      ? "Leave it empty to accept the suggestion shown."
      : "Leave it empty and choose nothing to accept the suggestion shown.";
    parts.push(text("p", hint, { class: "hint", id: "own-answer-hint" }));
    area.setAttribute("aria-describedby", "own-answer-hint");
  }
  area.addEventListener("input", () => {
    draft.custom_input = area.value;
    changed(true);
  });
  area.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  });
  return element("div", { class: "field" }, ...parts);
}

function overallNote(state, draft, { changed }) {
  const area = element("textarea", { id: "overall-note", rows: 2, maxlength: state.note_limit });
  area.value = draft.global_annotation;
  area.addEventListener("input", () => {
    draft.global_annotation = area.value;
    changed(true);
  });
  return element("div", { class: "field" },
    text("label", "Note on the whole question (optional)", { for: "overall-note" }), area);
}

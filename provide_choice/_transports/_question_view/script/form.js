// The question form: the options, the own answer and the notes, drawn from the server's state; the
// draft they edit, saved on the server as it changes; the answer or the cancel, sent once.
// `currentState()` is the server's latest state; `send(type, data)` goes out on the channel.
/* global byId, element, text, visibleOptions, takesText, optionList, questionViews, questionDraft,
   pageSubmission, pageRefusal, keyHelp, numberKeys, words */
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

  // Drawn again only when what the form holds changed (or the language it says it in), so a state
  // push keeps focus and typing.
  function render() {
    const state = currentState();
    const views = questionViews(state);
    const shape = JSON.stringify([
      words().tag,
      state.notes,
      ...views.map((view) => [view.mode, view.hidden_ids, view.notes, view.placeholder, view.submits_on_selection]),
    ]);
    if (shape === renderedShape) return;
    renderedShape = shape;
    const parts = views.map((view) => {
      const fieldsOfOne = questionFields(view, questionDraft(view, draft), actions);
      return views.length === 1 && view === state ? fieldsOfOne : questionGroup(view, fieldsOfOne);
    }).flat();
    if (state.notes) parts.push(overallNote(state, draft, actions));
    fields.replaceChildren(...parts);
    submitButton.hidden = views.length === 1 && views[0].submits_on_selection;
    updateSubmit();
  }

  function updateSubmit() {
    const state = currentState();
    const reason = pageRefusal(state, pageSubmission(state, draft));
    submitButton.disabled = sending || reason !== null;
    submitReason.textContent = submitButton.hidden ? "" : reason || "";
  }

  function showProblems(list) {
    problems.replaceChildren(...list.map((problem) => text("p", problem)));
  }

  function draftChanged(typing = false) {
    updateSubmit();
    // Once the answer is on its way it carries the choices; a draft after it would be refused.
    if (sending) return;
    showProblems([]);
    draftStatus.textContent = words().t("saving");
    clearTimeout(typingTimer);
    const sendDraft = () => send("draft", draft);
    if (typing) typingTimer = setTimeout(sendDraft, TYPING_MILLISECONDS);
    else sendDraft();
  }

  function submitAnswer() {
    const state = currentState();
    if (sending || state.status !== "pending") return;
    const answer = pageSubmission(state, draft);
    const reason = pageRefusal(state, answer);
    if (reason !== null) {
      showProblems([reason]);
      return;
    }
    sending = true;
    updateSubmit();
    send("answer", answer);
  }

  numberKeys(fields);
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
    saved(note) {
      draftStatus.textContent = note;
    },
    refused(list) {
      sending = false;
      showProblems(list);
      updateSubmit();
    },
  };
}

// One question's fields: the instruction, its options (with their filter, preview and key help),
// its own answer. Digits pressed inside them choose among its options.
function questionFields(view, draft, actions) {
  const visible = visibleOptions(view);
  draft.selected_ids = draft.selected_ids.filter((id) => visible.some((option) => option.id === id));
  const parts = [];
  if (visible.length) {
    parts.push(text("p", view.instruction, { class: "hint" }), optionList(view, visible, draft, actions),
      keyHelp(view, visible.length));
  }
  if (takesText(view)) parts.push(textAnswer(view, draft, actions));
  return parts;
}

// A question of a batch: a group named by its header and prompt.
function questionGroup(view, parts) {
  const headerId = `${view.prefix}header`;
  const promptId = `${view.prefix}prompt`;
  const heading = element("div", { class: "question-heading" });
  if (view.header) heading.append(text("span", view.header, { class: "chip", id: headerId }));
  const prompt = element("div", { class: "prompt", id: promptId });
  prompt.innerHTML = view.prompt_html; // rendered by the server's markdown renderer, agent HTML escaped
  heading.append(prompt);
  const labelledBy = view.header ? `${headerId} ${promptId}` : promptId;
  const group = element("section", { class: "question-group", role: "group", "aria-labelledby": labelledBy },
    heading, ...parts);
  return group;
}

function textAnswer(state, draft, { changed, submit }) {
  const label = words().t(state.mode === "text_input" ? "your_answer" : "own_answer");
  const area = element("textarea", { id: `${state.prefix}own-answer`, rows: 3, maxlength: state.text_limit });
  area.value = draft.custom_input;
  const parts = [text("label", label, { for: area.id }), area];
  if (state.placeholder !== null) {
    area.placeholder = state.placeholder;
    const hint = words().t(state.mode === "text_input" ? "suggestion_hint" : "suggestion_hint_hybrid");
    parts.push(text("p", hint, { class: "hint", id: `${area.id}-hint` }));
    area.setAttribute("aria-describedby", `${area.id}-hint`);
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
  const label = words().t(Array.isArray(state.questions) ? "note_on_all" : "note_on_question");
  return element("div", { class: "field" }, text("label", label, { for: "overall-note" }), area);
}

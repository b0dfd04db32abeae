// The provide-choice page: shows one question, keeps the person's draft on the server, sends the
// answer. Agent text only ever goes into the page as text (textContent, value), never as markup.
// The server holds the truth (status, time left, settings); the page follows its state messages,
// over a WebSocket, or by plain HTTP when the WebSocket cannot connect.
"use strict";

(() => {
  const ENDINGS = {
    answered: "Answer sent, you can close this tab",
    cancelled: "Cancelled",
    cancelled_by_agent: "Cancelled by the agent",
    timeout: "Timed out",
  };
  const AFTER_ENDING = "You can close this tab.";
  const POLL_MILLISECONDS = 2000;
  const CONNECT_MILLISECONDS = 3000;
  const TYPING_MILLISECONDS = 300;
  const URGENT_SECONDS = 30;

  const byId = (id) => document.getElementById(id);
  const form = byId("question-form");
  const fields = byId("answer-fields");
  const submitButton = byId("submit-button");
  const cancelButton = byId("cancel-button");
  const submitReason = byId("submit-reason");
  const problems = byId("problems");
  const draftStatus = byId("draft-status");
  const countdown = byId("countdown");
  const settingsPanel = byId("settings");
  const settingsFields = byId("settings-fields");
  const settingsStatus = byId("settings-status");
  const inboxLink = byId("inbox-link");

  const base = location.pathname.replace(/\/+$/, "");
  let state = JSON.parse(byId("question-state").textContent);
  let draft = structuredClone(state.draft);
  let syncedAt = performance.now();
  let renderedShape = null;
  let sending = false;
  let movingByArrow = false; // an arrow key is moving the choice: its click sends nothing
  let settingsChange = null; // the settings change sent and not yet seen in a state
  let typingTimer = null;
  let channel = null;

  // Small DOM helpers: every text goes in through textContent.

  function element(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === false || value === null || value === undefined) continue;
      node.setAttribute(name, value === true ? "" : String(value));
    }
    node.append(...children);
    return node;
  }

  function text(tag, content, attributes = {}) {
    const node = element(tag, attributes);
    node.textContent = content;
    return node;
  }

  // What the person sees, derived from the server's state and the local draft.

  const visibleOptions = () => state.options.filter((option) => !state.hidden_ids.includes(option.id));
  const takesText = () => state.mode === "text_input" || state.mode === "hybrid";
  const choosesOne = () => state.limits.maximum === 1;

  function countText(minimum, maximum) {
    const noun = maximum === 1 ? "option" : "options";
    if (minimum === maximum) return `exactly ${minimum} ${noun}`;
    if (minimum === 0) return `up to ${maximum} ${noun}`;
    return `${minimum} to ${maximum} ${noun}`;
  }

  function instruction() {
    if (state.submits_on_selection) return "Choose one: choosing an option sends your answer.";
    const count = countText(state.limits.minimum, state.limits.maximum);
    if (state.mode === "hybrid") return `Choose ${count}, or type your own answer.`;
    return `Choose ${count}.`;
  }

  function answerFromDraft() {
    const visible = visibleOptions().map((option) => option.id);
    const selected = visible.filter((id) => draft.selected_ids.includes(id));
    let customInput = null;
    let placeholderUsed = false;
    if (takesText()) {
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

  function refusal(answer) {
    if (state.mode === "text_input") {
      return answer.custom_input === null ? "Type an answer to submit." : null;
    }
    // Typing an own answer (hybrid) stands in for choosing, so only the maximum applies then.
    const minimum = answer.custom_input !== null ? 0 : state.limits.minimum;
    const count = answer.selected_ids.length;
    if (count >= minimum && count <= state.limits.maximum) return null;
    return `Choose ${countText(minimum, state.limits.maximum)} to submit (${count} chosen).`;
  }

  // The form.

  function renderForm() {
    const shape = JSON.stringify([
      state.mode, state.hidden_ids, state.notes, state.placeholder, state.submits_on_selection,
    ]);
    if (shape === renderedShape) return;
    renderedShape = shape;
    const visible = visibleOptions();
    draft.selected_ids = draft.selected_ids.filter((id) => visible.some((option) => option.id === id));
    const parts = [];
    if (visible.length) parts.push(text("p", instruction(), { class: "hint" }), optionList(visible));
    if (takesText()) parts.push(textAnswer());
    if (state.notes) parts.push(overallNote());
    fields.replaceChildren(...parts);
    submitButton.hidden = state.submits_on_selection;
    updateSubmit();
  }

  function optionList(visible) {
    const list = element("ul", { class: "options", role: "list" });
    const type = choosesOne() ? "radio" : "checkbox";
    for (const option of visible) list.append(optionItem(option, type));
    const parts = [list];
    if (type === "radio" && state.limits.minimum === 0) {
      const clear = text("button", "Clear the choice", { type: "button", class: "link" });
      clear.addEventListener("click", () => {
        draft.selected_ids = [];
        for (const input of list.querySelectorAll("input")) input.checked = false;
        draftChanged();
      });
      parts.push(clear);
    }
    return element("div", { class: "field" }, ...parts);
  }

  function optionItem(option, type) {
    const index = state.options.indexOf(option);
    const id = `option-${index}`;
    const input = element("input", { type, id, name: "choice" });
    input.value = option.id;
    input.checked = draft.selected_ids.includes(option.id);
    const label = element("label", { for: id }, text("span", option.label));
    if (option.recommended) label.append(text("span", "Recommended", { class: "badge" }));
    const detail = element("div", { class: "detail" });
    if (option.description) {
      detail.append(text("p", option.description, { class: "option-description", id: `${id}-description` }));
      input.setAttribute("aria-describedby", `${id}-description`);
    }
    if (state.notes) detail.append(...optionNote(option, id));
    input.addEventListener("change", () => {
      if (type === "radio") draft.selected_ids = [option.id];
      else if (input.checked) draft.selected_ids = [...draft.selected_ids, option.id];
      else draft.selected_ids = draft.selected_ids.filter((chosen) => chosen !== option.id);
      draftChanged();
    });
    if (state.submits_on_selection) {
      // A click (on the option or its label) chooses and sends; so do Space and Enter. Arrow
      // keys only move: the browser clicks the option they move to, and that click sends nothing.
      input.addEventListener("click", () => {
        if (movingByArrow) {
          movingByArrow = false;
          return;
        }
        draft.selected_ids = [option.id];
        submitAnswer();
      });
      input.addEventListener("keydown", (event) => {
        movingByArrow = event.key.startsWith("Arrow");
        if (event.key !== " " && event.key !== "Enter") return;
        event.preventDefault();
        input.checked = true;
        draft.selected_ids = [option.id];
        submitAnswer();
      });
    } else {
      input.addEventListener("keydown", (event) => {
        if (event.key !== "Enter") return;
        event.preventDefault();
        submitAnswer();
      });
    }
    return element("li", { class: "option" }, input, label, detail);
  }

  function optionNote(option, id) {
    const noteId = `${id}-note`;
    const existing = draft.option_annotations[option.id] || "";
    const toggle = element("button", {
      type: "button",
      class: "link",
      "aria-expanded": existing ? "true" : "false",
      "aria-controls": `${noteId}-field`,
    });
    const name = () => {
      if (!field.hidden) return "Hide the note";
      return input.value.trim() ? "Edit the note" : "Add a note";
    };
    const input = element("input", { type: "text", id: noteId, maxlength: 2000, autocomplete: "off" });
    input.value = existing;
    const field = element("div", { class: "note", id: `${noteId}-field`, hidden: !existing },
      text("label", `Note on ${option.label}`, { for: noteId }), input);
    toggle.textContent = name();
    toggle.addEventListener("click", () => {
      const open = field.hidden;
      field.hidden = !open;
      toggle.setAttribute("aria-expanded", String(open));
      toggle.textContent = name();
      if (open) input.focus();
    });
    input.addEventListener("input", () => {
      draft.option_annotations = { ...draft.option_annotations, [option.id]: input.value };
      draftChanged(true);
    });
    return [toggle, field];
  }

  function textAnswer() {
    const label = state.mode === "text_input" ? "Your answer" : "Or type your own answer";
    const area = element("textarea", { id: "own-answer", rows: 3, maxlength: 10000 });
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
      draftChanged(true);
    });
    area.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        submitAnswer();
      }
    });
    return element("div", { class: "field" }, ...parts);
  }

  function overallNote() {
    const area = element("textarea", { id: "overall-note", rows: 2, maxlength: 2000 });
    area.value = draft.global_annotation;
    area.addEventListener("input", () => {
      draft.global_annotation = area.value;
      draftChanged(true);
    });
    return element("div", { class: "field" },
      text("label", "Note on the whole question (optional)", { for: "overall-note" }), area);
  }

  function updateSubmit() {
    const reason = refusal(answerFromDraft());
    submitButton.disabled = sending || reason !== null;
    submitReason.textContent = state.submits_on_selection ? "" : reason || "";
  }

  function showProblems(list) {
    problems.replaceChildren(...list.map((problem) => text("p", problem)));
  }

  // Sending: the draft as it changes, the answer, the cancel.

  function draftChanged(typing = false) {
    updateSubmit();
    // Once the answer is on its way it carries the choices; a draft after it would be refused.
    if (sending) return;
    showProblems([]);
    draftStatus.textContent = "Saving…";
    clearTimeout(typingTimer);
    const send = () => channel.send("draft", draft);
    if (typing) typingTimer = setTimeout(send, TYPING_MILLISECONDS);
    else send();
  }

  function submitAnswer() {
    if (sending || state.status !== "pending") return;
    const answer = answerFromDraft();
    const reason = refusal(answer);
    if (reason !== null) {
      showProblems([reason]);
      return;
    }
    sending = true;
    updateSubmit();
    channel.send("answer", answer);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submitAnswer();
  });

  cancelButton.addEventListener("click", () => {
    if (state.status !== "pending") return;
    sending = true;
    updateSubmit();
    channel.send("answer", { kind: "cancelled" });
  });

  // The settings panel: built once, its values follow the server's state.

  // Labels, values and rules come from the server: every surface names a setting the same way.
  const FIELDS = state.setting_choices;
  const CHOICE_NAMES = Object.keys(FIELDS).filter((name) => FIELDS[name].choices && name !== "annotations");
  const NUMBER_NAMES = Object.keys(FIELDS).filter((name) => FIELDS[name].range);
  const controls = {};
  const hints = {};

  function field(control, label, hint = null) {
    const parts = [text("label", label, { for: control.id }), control];
    if (hint !== null) {
      hints[control.id] = text("p", hint, { class: "hint", id: `${control.id}-hint` });
      control.setAttribute("aria-describedby", hints[control.id].id);
      parts.push(hints[control.id]);
    }
    return element("div", { class: "field" }, ...parts);
  }

  function selectField(name, hint = null) {
    const select = element("select", { id: `setting-${name}` });
    const label = FIELDS[name].label;
    for (const [value, choiceLabel] of FIELDS[name].choices) {
      const choice = text("option", choiceLabel);
      choice.value = JSON.stringify(value);
      select.append(choice);
    }
    select.addEventListener("change", () => changeSettings("settings", { [name]: JSON.parse(select.value) }));
    controls[name] = select;
    return field(select, label, hint);
  }

  function numberField(name, id, hint) {
    const { label, range: [minimum, maximum], rule, optional } = FIELDS[name];
    const input = element("input", { type: "number", id, min: minimum, max: maximum, step: 1, required: !optional });
    input.addEventListener("change", () => {
      const value = input.value.trim();
      const number = Number(value);
      const valid = value ? Number.isInteger(number) && number >= minimum && number <= maximum : optional;
      if (!valid) {
        settingsStatus.textContent = rule;
        return;
      }
      changeSettings("settings", { [name]: value ? number : null });
    });
    controls[name] = input;
    return field(input, label, hint);
  }

  function notesField() {
    const box = element("input", { type: "checkbox", id: "setting-annotations" });
    box.addEventListener("change", () => changeSettings("settings", { annotations: box.checked }));
    controls.annotations = box;
    const check = element("div", { class: "check" }, box,
      text("label", FIELDS.annotations.label, { for: box.id }));
    const parts = [check];
    if (!state.notes_allowed) parts.push(text("p", "This question takes no notes.", { class: "hint" }));
    return element("div", { class: "field" }, ...parts);
  }

  function shownOptionsField() {
    const boxes = state.options.map((option, index) => {
      const box = element("input", { type: "checkbox", id: `show-option-${index}` });
      box.value = option.id;
      box.addEventListener("change", () => {
        const hidden = boxes.filter((other) => !other.checked).map((other) => other.value);
        changeSettings("visibility", { hidden_ids: hidden });
      });
      return box;
    });
    controls.shown = boxes;
    const rows = boxes.map((box, index) => element("div", { class: "check" }, box,
      text("label", state.options[index].label, { for: box.id })));
    return element("fieldset", {}, text("legend", "Options shown (this question only)"), ...rows);
  }

  function renderSettings() {
    const parts = [
      selectField("transport", "Applies from the next question."),
      numberField("timeout_override_seconds", "setting-timeout", ""),
      selectField("single_submit"),
      notesField(),
      selectField("placeholder_visible"),
      selectField("timeout_action"),
      selectField("keep_history", "What was asked and answered, for provide-choice history and the inbox."),
      numberField("history_days", "setting-history-days", "Older questions leave the history when a server starts."),
    ];
    if (state.options.length) parts.push(shownOptionsField());
    settingsFields.replaceChildren(...parts);
  }

  function changeSettings(type, data) {
    settingsChange = data;
    settingsStatus.textContent = "Saving…";
    channel.send(type, data);
  }

  function changeArrived() {
    if (settingsChange === null) return false;
    if ("hidden_ids" in settingsChange) {
      return JSON.stringify(settingsChange.hidden_ids) === JSON.stringify(state.hidden_ids);
    }
    return Object.entries(settingsChange).every(([name, value]) => state.settings[name] === value);
  }

  function updateSettings() {
    const settings = state.settings;
    for (const name of CHOICE_NAMES) controls[name].value = JSON.stringify(settings[name]);
    for (const name of NUMBER_NAMES) {
      if (document.activeElement !== controls[name]) controls[name].value = settings[name] ?? "";
    }
    hints["setting-timeout"].textContent = `Empty: as the agent asks (${state.requested_timeout_seconds} s). `
      + "A new timeout also gives this question at least that long from now.";
    controls.annotations.checked = settings.annotations;
    for (const box of controls.shown || []) box.checked = !state.hidden_ids.includes(box.value);
    controls.placeholder_visible.disabled = !state.has_placeholder;
    controls.single_submit.disabled = state.mode !== "single";
    if (changeArrived()) {
      settingsChange = null;
      settingsStatus.textContent = "Saved.";
    }
  }

  // The countdown runs locally and resyncs with every state from the server.

  function tick() {
    const elapsed = (performance.now() - syncedAt) / 1000;
    const left = Math.max(0, Math.ceil(state.seconds_left - elapsed));
    countdown.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
    countdown.classList.toggle("urgent", left <= URGENT_SECONDS);
  }

  // Following the server.

  function applyState(next) {
    state = next;
    syncedAt = performance.now();
    // The inbox, when one runs: back to every question waiting, from every agent.
    inboxLink.hidden = !state.inbox_url;
    if (state.inbox_url) inboxLink.href = state.inbox_url;
    if (state.status !== "pending") {
      showEnding();
      return;
    }
    renderForm();
    updateSettings();
    tick();
  }

  function showEnding() {
    if (!form.hidden) {
      form.hidden = true;
      settingsPanel.hidden = true;
      countdown.hidden = true;
      const ended = byId("ended");
      byId("ended-title").textContent = ENDINGS[state.status];
      const summary = state.summary ? `${state.summary} ` : "";
      byId("ended-summary").textContent = state.status === "answered" ? summary : summary + AFTER_ENDING;
      ended.hidden = false;
      ended.focus();
    }
    channel?.stop();
  }

  function received(message) {
    if (message.type === "state") applyState(message.state);
    else if (message.type === "saved") draftStatus.textContent = "Saved: closing this tab loses nothing.";
    else if (message.type === "refused") refused(message.about, message.problems);
  }

  function refused(about, list) {
    if (about === "settings" || about === "visibility") {
      settingsChange = null;
      settingsStatus.textContent = list.join(" ");
      updateSettings();
      return;
    }
    sending = false;
    showProblems(list);
    updateSubmit();
  }

  // Channels: a WebSocket, or plain HTTP (a POST per message, the state polled) when it fails.

  function webSocketChannel() {
    const queued = [];
    let socket;
    let fellBack = false;
    let stopped = false;
    const fallBack = () => {
      if (fellBack || stopped || state.status !== "pending") return;
      fellBack = true;
      channel = httpChannel();
      for (const [type, data] of queued) channel.send(type, data);
      queued.length = 0;
    };
    try {
      socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${base}/live`);
    } catch {
      return httpChannel();
    }
    const giveUp = setTimeout(() => {
      if (socket.readyState === WebSocket.CONNECTING) {
        socket.close();
        fallBack();
      }
    }, CONNECT_MILLISECONDS);
    socket.addEventListener("open", () => {
      clearTimeout(giveUp);
      for (const [type, data] of queued) socket.send(JSON.stringify({ type, data }));
      queued.length = 0;
    });
    socket.addEventListener("message", (event) => received(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      clearTimeout(giveUp);
      fallBack();
    });
    return {
      send(type, data) {
        if (stopped) return;
        if (fellBack) channel.send(type, data);
        else if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type, data }));
        else queued.push([type, data]);
      },
      stop() {
        stopped = true;
        clearTimeout(giveUp);
        if (socket.readyState <= WebSocket.OPEN) socket.close();
      },
    };
  }

  function httpChannel() {
    const poll = setInterval(async () => {
      try {
        const response = await fetch(`${base}/state`, { cache: "no-store" });
        if (response.ok) applyState((await response.json()).state);
      } catch {
        // The server is away for a moment (or for good, once the question ended): keep the page.
      }
    }, POLL_MILLISECONDS);
    return {
      async send(type, data) {
        let body = {};
        let status = 0;
        try {
          const response = await fetch(`${base}/${type}`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(data),
          });
          status = response.status;
          body = await response.json();
        } catch {
          body = { problems: ["The server cannot be reached; try again in a moment."] };
        }
        if (status === 200) {
          if (type === "draft") received({ type: "saved" });
          applyState(body.state);
        } else {
          refused(type, body.problems || [`The server answered ${status}.`]);
          if (body.state) applyState(body.state);
        }
      },
      stop() {
        clearInterval(poll);
      },
    };
  }

  renderSettings();
  applyState(state);
  if (state.status === "pending") {
    channel = webSocketChannel();
    setInterval(tick, 250);
  }
})();

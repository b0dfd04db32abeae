// The settings panel: built once, its values follow the server's state. Labels, values and rules
// come from the server too: every surface names a setting the same way. `currentState()` is the
// server's latest state; `send(type, data)` goes out on the channel.
/* global byId, element, text */
/* exported createSettingsPanel */

function createSettingsPanel(currentState, send) {
  const status = byId("settings-status");
  const initial = currentState();
  const fields = initial.setting_choices;
  const choiceNames = Object.keys(fields).filter((name) => fields[name].choices && name !== "annotations");
  const numberNames = Object.keys(fields).filter((name) => fields[name].range);
  const timeNames = Object.keys(fields).filter((name) => fields[name].time);
  const controls = {};
  const hints = {};
  let change = null; // the settings change sent and not yet seen in a state

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
    for (const [value, choiceLabel] of fields[name].choices) {
      const choice = text("option", choiceLabel);
      choice.value = JSON.stringify(value);
      select.append(choice);
    }
    select.addEventListener("change", () => changeSettings("settings", { [name]: JSON.parse(select.value) }));
    controls[name] = select;
    return field(select, fields[name].label, hint);
  }

  function numberField(name, id, hint) {
    const { label, range: [minimum, maximum], rule, optional } = fields[name];
    const input = element("input", { type: "number", id, min: minimum, max: maximum, step: 1, required: !optional });
    input.addEventListener("change", () => {
      const value = input.value.trim();
      const number = Number(value);
      const valid = value ? Number.isInteger(number) && number >= minimum && number <= maximum : optional;
      if (!valid) {
        status.textContent = rule;
        return;
      }
      changeSettings("settings", { [name]: value ? number : null });
    });
    controls[name] = input;
    return field(input, label, hint);
  }

  // A local date and time (the browser's picker gives one without an offset); empty: none.
  function timeField(name, id, hint) {
    const input = element("input", { type: "datetime-local", id });
    input.addEventListener("change", () => changeSettings("settings", { [name]: input.value || null }));
    controls[name] = input;
    return field(input, fields[name].label, hint);
  }

  function notesField() {
    const box = element("input", { type: "checkbox", id: "setting-annotations" });
    box.addEventListener("change", () => changeSettings("settings", { annotations: box.checked }));
    controls.annotations = box;
    const check = element("div", { class: "check" }, box,
      text("label", fields.annotations.label, { for: box.id }));
    const parts = [check];
    if (!initial.notes_allowed) parts.push(text("p", "This question takes no notes.", { class: "hint" }));
    return element("div", { class: "field" }, ...parts);
  }

  // One box per alert channel; a change sends that channel alone (the others stay as they are).
  function alertsField() {
    const { label, channels } = fields.alerts;
    controls.alerts = {};
    const rows = channels.map(([channel, channelLabel]) => {
      const box = element("input", { type: "checkbox", id: `setting-alerts-${channel}` });
      box.addEventListener("change", () => changeSettings("settings", { alerts: { [channel]: box.checked } }));
      controls.alerts[channel] = box;
      return element("div", { class: "check" }, box, text("label", channelLabel, { for: box.id }));
    });
    hints.pushAddresses = text("p", "", { class: "hint", id: "setting-alerts-push-hint" });
    controls.alerts.push.setAttribute("aria-describedby", hints.pushAddresses.id);
    return element("fieldset", {}, text("legend", label), ...rows, hints.pushAddresses);
  }

  function shownOptionsField() {
    const boxes = initial.options.map((option, index) => {
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
      text("label", initial.options[index].label, { for: box.id })));
    return element("fieldset", {}, text("legend", "Options shown (this question only)"), ...rows);
  }

  function changeSettings(type, data) {
    change = data;
    status.textContent = "Saving…";
    send(type, data);
  }

  function changeArrived(state) {
    if (change === null) return false;
    if ("hidden_ids" in change) return JSON.stringify(change.hidden_ids) === JSON.stringify(state.hidden_ids);
    if ("alerts" in change) {
      return Object.entries(change.alerts).every(([channel, on]) => state.settings.alerts[channel] === on);
    }
    return Object.entries(change).every(([name, value]) => state.settings[name] === value);
  }

  function update() {
    const state = currentState();
    const settings = state.settings;
    for (const name of choiceNames) controls[name].value = JSON.stringify(settings[name]);
    for (const name of [...numberNames, ...timeNames]) {
      if (document.activeElement !== controls[name]) controls[name].value = settings[name] ?? "";
    }
    hints["setting-timeout"].textContent = `Empty: as the agent asks (${state.requested_timeout_seconds} s). `
      + "A new timeout also gives this question at least that long from now.";
    controls.annotations.checked = settings.annotations;
    for (const [channel, box] of Object.entries(controls.alerts)) box.checked = settings.alerts[channel];
    const count = settings.notify_url_count;
    hints.pushAddresses.textContent = count
      ? `Push goes to the ${count === 1 ? "address" : `${count} addresses`} in your settings file.`
      : "Push needs addresses: notify_urls in your settings file, or PROVIDE_CHOICE_NOTIFY where the server runs.";
    for (const box of controls.shown || []) box.checked = !state.hidden_ids.includes(box.value);
    controls.placeholder_visible.disabled = !state.has_placeholder;
    controls.single_submit.disabled = state.mode !== "single";
    if (changeArrived(state)) {
      change = null;
      status.textContent = "Saved.";
    }
  }

  const parts = [
    selectField("transport", "Applies from the next question."),
    numberField("timeout_override_seconds", "setting-timeout", ""),
    selectField("single_submit"),
    notesField(),
    selectField("placeholder_visible"),
    selectField("timeout_action"),
    selectField("keep_history", "What was asked and answered, for provide-choice history and the inbox."),
    numberField("history_days", "setting-history-days", "Older questions leave the history when a server starts."),
    alertsField(),
    numberField("alert_after_seconds", "setting-alert-after", "0: at once. A question you are at sends none."),
    selectField("notify_detail", "The title only keeps the question and its page's address off the push service."),
    timeField("away_until", "setting-away-until",
      "Until then, questions are answered at once, shown nowhere, saying you are away. Empty: not away."),
    selectField("unattended_action"),
  ];
  if (initial.options.length) parts.push(shownOptionsField());
  byId("settings-fields").replaceChildren(...parts);

  return {
    update,
    refused(list) {
      change = null;
      status.textContent = list.join(" ");
      update();
    },
  };
}

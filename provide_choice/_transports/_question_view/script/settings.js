// The settings panel: built when first opened (and again in another language), its values follow
// the server's state while it is open. A closed panel costs the page's start nothing: its hundred
// elements would take a new tab's first style and layout about 50 ms (bench/portal.py). Labels,
// values and rules come from the server too: every surface names a setting the same way.
// `currentState()` is the server's latest state; `send(type, data)` goes out on the channel.
/* global byId, element, text, words */
/* exported createSettingsPanel */

function createSettingsPanel(currentState, send) {
  const panel = byId("settings");
  const status = byId("settings-status");
  let initial = currentState();
  let fields = initial.setting_choices;
  let choiceNames = [];
  let numberNames = [];
  let timeNames = [];
  let controls = {};
  let hints = {};
  let builtIn = null; // the language the panel was built in
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
    if (!initial.notes_allowed) parts.push(text("p", words().t("no_notes"), { class: "hint" }));
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
    return element("fieldset", {}, text("legend", words().t("options_shown")), ...rows);
  }

  function changeSettings(type, data) {
    change = data;
    status.textContent = words().t("saving");
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
    if (!panel.open) return;
    if (builtIn !== words().tag) build();
    const state = currentState();
    const settings = state.settings;
    for (const name of choiceNames) controls[name].value = JSON.stringify(settings[name]);
    for (const name of [...numberNames, ...timeNames]) {
      if (document.activeElement !== controls[name]) controls[name].value = settings[name] ?? "";
    }
    hints["setting-timeout"].textContent = words().t("timeout_hint", { seconds: state.requested_timeout_seconds });
    controls.annotations.checked = settings.annotations;
    for (const [channel, box] of Object.entries(controls.alerts)) box.checked = settings.alerts[channel];
    const count = settings.notify_url_count;
    hints.pushAddresses.textContent = count
      ? words().n("push_addresses", count)
      : words().t("push_needs_addresses");
    for (const box of controls.shown || []) box.checked = !state.hidden_ids.includes(box.value);
    controls.placeholder_visible.disabled = !state.has_placeholder;
    controls.single_submit.disabled = state.mode !== "single";
    if (changeArrived(state)) {
      change = null;
      status.textContent = words().t("saved");
    }
  }

  // The panel's fields, in the language the page speaks now, from the server's latest labels.
  function build() {
    initial = currentState();
    fields = initial.setting_choices;
    choiceNames = Object.keys(fields).filter((name) => fields[name].choices && name !== "annotations");
    numberNames = Object.keys(fields).filter((name) => fields[name].range);
    timeNames = Object.keys(fields).filter((name) => fields[name].time);
    controls = {};
    hints = {};
    builtIn = words().tag;
    const parts = [
      selectField("language", words().t("language_hint")),
      selectField("transport", words().t("transport_hint")),
      numberField("timeout_override_seconds", "setting-timeout", ""),
      selectField("single_submit"),
      notesField(),
      selectField("placeholder_visible"),
      selectField("timeout_action"),
      selectField("keep_history", words().t("history_hint")),
      numberField("history_days", "setting-history-days", words().t("history_days_hint")),
      alertsField(),
      numberField("alert_after_seconds", "setting-alert-after", words().t("alert_after_hint")),
      selectField("notify_detail", words().t("notify_detail_hint")),
      timeField("away_until", "setting-away-until", words().t("away_until_hint")),
      selectField("unattended_action"),
    ];
    if (initial.options.length) parts.push(shownOptionsField());
    const focused = document.activeElement?.id; // the language just chosen keeps the focus
    byId("settings-fields").replaceChildren(...parts);
    if (focused) byId(focused)?.focus();
  }

  panel.addEventListener("toggle", update);
  return {
    update,
    refused(list) {
      change = null;
      status.textContent = list.join(" ");
      update();
    },
  };
}

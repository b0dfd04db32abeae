// The options of the question form: a radio button or check box each, with its description and its
// note. A change goes into the draft and is told through `changed(typing)`; a choice that is the
// whole answer (or Enter) asks for the answer to be sent through `submit()`.
/* global element, text, withPreview, withFilter, words */
/* exported optionList */

function optionList(state, visible, draft, { changed, submit }) {
  const list = element("ul", { class: "options", role: "list", id: `${state.prefix}options` });
  const type = state.limits.maximum === 1 ? "radio" : "checkbox";
  const keys = state.submits_on_selection ? sendingOnChoice(draft, submit) : sendingOnEnter(submit);
  for (const option of visible) {
    list.append(optionItem(state, option, type, draft, { changed, keys }));
  }
  const parts = withFilter(state, withPreview(state, list, draft));
  if (type === "radio" && state.limits.minimum === 0) {
    const clear = text("button", words().t("clear_choice"), { type: "button", class: "link" });
    clear.addEventListener("click", () => {
      draft.selected_ids = [];
      for (const input of list.querySelectorAll("input")) input.checked = false;
      changed();
    });
    parts.push(clear);
  }
  return element("div", { class: "field" }, ...parts);
}

function optionItem(state, option, type, draft, { changed, keys }) {
  const id = `${state.prefix}option-${state.options.indexOf(option)}`;
  const input = element("input", { type, id, name: `${state.prefix}choice` });
  input.value = option.id;
  input.checked = draft.selected_ids.includes(option.id);
  const label = element("label", { for: id }, text("span", option.label));
  if (option.recommended) label.append(text("span", words().t("recommended"), { class: "badge" }));
  const detail = element("div", { class: "detail" });
  if (option.description) {
    detail.append(text("p", option.description, { class: "option-description", id: `${id}-description` }));
    input.setAttribute("aria-describedby", `${id}-description`);
  }
  if (state.notes) detail.append(...optionNote(state, option, id, draft, changed));
  input.addEventListener("change", () => {
    if (type === "radio") draft.selected_ids = [option.id];
    else if (input.checked) draft.selected_ids = [...draft.selected_ids, option.id];
    else draft.selected_ids = draft.selected_ids.filter((chosen) => chosen !== option.id);
    changed();
  });
  keys(input, option);
  const search = `${option.label} ${option.description || ""}`.toLowerCase();
  return element("li", { class: "option", "data-search": search }, input, label, detail);
}

// When choosing is the whole answer: a click (on the option or its label) chooses and sends; so do
// Space and Enter. Arrow keys only move: the browser clicks the option they move to, and that click
// sends nothing.
function sendingOnChoice(draft, submit) {
  let movingByArrow = false;
  return (input, option) => {
    input.addEventListener("click", () => {
      if (movingByArrow) {
        movingByArrow = false;
        return;
      }
      draft.selected_ids = [option.id];
      submit();
    });
    input.addEventListener("keydown", (event) => {
      movingByArrow = event.key.startsWith("Arrow");
      if (event.key !== " " && event.key !== "Enter") return;
      event.preventDefault();
      input.checked = true;
      draft.selected_ids = [option.id];
      submit();
    });
  };
}

// Otherwise Enter on an option sends the answer as it stands.
function sendingOnEnter(submit) {
  return (input) => {
    input.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      submit();
    });
  };
}

function optionNote(state, option, id, draft, changed) {
  const noteId = `${id}-note`;
  const existing = draft.option_annotations[option.id] || "";
  const toggle = element("button", {
    type: "button",
    class: "link",
    "aria-expanded": existing ? "true" : "false",
    "aria-controls": `${noteId}-field`,
  });
  const input = element("input", { type: "text", id: noteId, maxlength: state.note_limit, autocomplete: "off" });
  input.value = existing;
  const field = element("div", { class: "note", id: `${noteId}-field`, hidden: !existing },
    text("label", words().t("note_on", { option: option.label }), { for: noteId }), input);
  const name = () => {
    if (!field.hidden) return words().t("hide_note");
    return words().t(input.value.trim() ? "edit_note" : "add_note");
  };
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
    changed(true);
  });
  return [toggle, field];
}

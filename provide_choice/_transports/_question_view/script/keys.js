// Long lists and number keys. Over nine options a filter field stands above the list: typing
// narrows the options, and how many are hidden is announced. Digits 1 to 9 choose (one answer) or
// toggle (several) the matching shown option of the question that has the focus; each option
// announces its digit (aria-keyshortcuts), and the key help under the list says so.
/* global element, text, words */
/* exported withFilter, numberKeys, keyHelp */

const FILTER_OVER = 9;

function shownInputs(list) {
  return [...list.querySelectorAll(".option")].filter((item) => !item.hidden).map((item) => item.querySelector("input"));
}

// Digits follow what is shown: the first nine options the filter leaves.
function numberOptions(list) {
  for (const input of list.querySelectorAll(".option input")) input.removeAttribute("aria-keyshortcuts");
  shownInputs(list).slice(0, 9).forEach((input, index) => input.setAttribute("aria-keyshortcuts", String(index + 1)));
}

function withFilter(view, list) {
  numberOptions(list);
  if (view.options.length <= FILTER_OVER) return [list];
  const id = `${view.prefix}filter`;
  const field = element("input", { type: "search", id, autocomplete: "off", "aria-describedby": `${id}-status` });
  const status = element("p", { class: "hint", id: `${id}-status`, role: "status" });
  field.addEventListener("input", () => {
    const typed = field.value.trim().toLowerCase();
    let hidden = 0;
    for (const item of list.querySelectorAll(".option")) {
      item.hidden = Boolean(typed) && !item.dataset.search.includes(typed);
      if (item.hidden) hidden += 1;
    }
    status.textContent = hidden ? words().n("filter_hidden", hidden, { total: view.options.length }) : "";
    numberOptions(list);
  });
  // Enter in the filter must not send the answer.
  field.addEventListener("keydown", (event) => {
    if (event.key === "Enter") event.preventDefault();
  });
  return [element("div", { class: "filter" }, text("label", words().t("filter_label"), { for: id }), field, status), list];
}

// A digit pressed in the form chooses among the options of the question that has the focus (its
// group in a batch, the form's one question otherwise).
function numberKeys(form) {
  form.addEventListener("keydown", (event) => {
    if (!/^[1-9]$/.test(event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.matches("textarea, input[type=text], input[type=search]")) return;
    const question = event.target.closest(".question-group") || form;
    const input = shownInputs(question)[Number(event.key) - 1];
    if (!input) return;
    event.preventDefault();
    input.focus();
    input.click();
  });
}

function keyHelp(view, shown) {
  const help = view.limits.maximum === 1 ? "keys_choose" : "keys_toggle";
  return text("p", words().n(help, Math.min(shown, 9)), { class: "hint key-help" });
}

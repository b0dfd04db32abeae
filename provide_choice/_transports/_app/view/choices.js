// The present_choices app: the question, its context and one button per option, as the chat draws
// a ```choices block, from the tool's input as soon as the host sends it. A click sends the option's
// value as the person's next message (`ui/message`); from then on every button is disabled and the
// chosen one stays pressed. When the host refuses the message, the buttons come back and a line
// says it was not sent. Agent text only ever goes in as text.
// Its words are in the host's language (`hostContext.locale`).
/* global byId, element, text, connectToHost, documentParsed, speak, words, languageFor */

let answering = "closed"; // "open" while an option can be chosen, "sending", "sent"

const host = connectToHost({ name: "present-choices", version: "1.0.0" }, {
  "ui/notifications/tool-input": (params) => documentParsed.then(() => draw(params.arguments)),
  "ui/notifications/tool-result": (result) => {
    if (result.isError) documentParsed.then(() => showRefusal(result));
  },
  locale: (tag) => documentParsed.then(() => speak(languageFor([tag]))),
});

// The options as the tool takes them: `{label, value}`, or a string that is both. The server
// strips both (and refuses a call whose options are not usable: its result replaces the block).
function optionsOf(input) {
  if (!Array.isArray(input?.options) || typeof input.question !== "string") return null;
  const options = input.options.map((option) => (typeof option === "string" ? { label: option, value: option } : option));
  const usable = options.every((option) => typeof option?.label === "string" && typeof option.value === "string");
  return usable && options.length ? options.map(({ label, value }) => ({ label: label.trim(), value: value.trim() })) : null;
}

function draw(input) {
  const options = optionsOf(input);
  if (!options || answering === "sending" || answering === "sent") return;
  const question = text("p", input.question.trim(), { id: "choice-question", class: "choice-question" });
  const group = element("div", { role: "group", "aria-labelledby": "choice-question", class: "choice-group" }, question);
  const context = typeof input.context === "string" ? input.context.trim() : "";
  if (context) {
    group.append(text("p", context, { id: "choice-context", class: "choice-context" }));
    group.setAttribute("aria-describedby", "choice-context");
  }
  const buttons = options.map((option) => {
    const button = text("button", option.label, { type: "button", class: "choice-option", "aria-pressed": "false" });
    button.addEventListener("click", () => choose(option.value, button, buttons));
    return button;
  });
  group.append(element("div", { class: "choice-options" }, ...buttons));
  byId("choices").replaceChildren(group);
  byId("status").textContent = "";
  answering = "open";
}

// Disabled stays focusable (aria-disabled, not the attribute), as in the chat: a keyboard or
// screen-reader user stays on the button they pressed and hears what was chosen.
function show(buttons, chosen) {
  for (const button of buttons) {
    button.setAttribute("aria-pressed", String(button === chosen));
    button.setAttribute("aria-disabled", String(chosen !== null));
  }
}

async function choose(value, button, buttons) {
  if (answering !== "open") return;
  answering = "sending";
  show(buttons, button);
  byId("status").textContent = "";
  let refused;
  try {
    const result = await host.request("ui/message", { role: "user", content: [{ type: "text", text: value }] });
    refused = Boolean(result?.isError);
  } catch {
    refused = true;
  }
  answering = refused ? "open" : "sent";
  if (refused) {
    show(buttons, null);
    byId("status").textContent = words().t("not_sent");
  }
}

// The server refused the call (the options break a rule): the model gets the same words and asks
// again, and nobody may answer what was never asked.
function showRefusal(result) {
  const problems = (result.content ?? []).filter((part) => part.type === "text").map((part) => part.text);
  answering = "closed";
  byId("choices").replaceChildren(text("p", words().t("not_shown"), { class: "choice-question" }), text("pre", problems.join("\n"), { class: "choice-problems" }));
}

host.start();

// The "Preview" region beside a list whose options carry a preview: it shows the preview of the
// option the keyboard or the pointer is on, else of the chosen one. Previews arrive from the server
// already rendered by its one markdown renderer (agent HTML escaped), so they go in as that markup.
/* global element, text, words */
/* exported withPreview */

function withPreview(view, list, draft) {
  if (!view.options.some((option) => option.preview_html)) return list;
  // Each question of a batch has its own, and landmarks must be told apart: "Preview: Database".
  const name = view.name ? words().t("preview_of", { question: view.name }) : words().t("preview");
  const region = element("section", { class: "preview", role: "region", "aria-label": name });
  const byId = Object.fromEntries(view.options.map((option) => [option.id, option]));
  let shown;
  const show = (option) => {
    shown = option;
    if (!option) {
      region.replaceChildren(text("p", words().t("preview_hint"), { class: "hint" }));
      return;
    }
    const body = element("div", { class: "preview-body" });
    if (option.preview_html) body.innerHTML = option.preview_html;
    else body.append(text("p", words().t("no_preview"), { class: "hint" }));
    region.replaceChildren(text("p", option.label, { class: "preview-label" }), body);
  };
  const chosen = () => byId[draft.selected_ids.find((id) => byId[id]?.preview_html) ?? draft.selected_ids[0]];
  const pointedAt = (event) => byId[event.target.closest(".option")?.querySelector("input")?.value];
  list.addEventListener("focusin", (event) => show(pointedAt(event) || chosen()));
  // The pointer's own moves only: a list scrolling under a pointer at rest (the keyboard moving the
  // focus down) brings other options under it, and their mouseover must not take the preview.
  list.addEventListener("mousemove", (event) => {
    const option = pointedAt(event);
    if (option && option !== shown) show(option);
  });
  list.addEventListener("change", () => show(chosen()));
  list.addEventListener("focusout", (event) => {
    if (!list.contains(event.relatedTarget)) show(chosen());
  });
  show(chosen());
  return element("div", { class: "with-preview" }, list, region);
}

// Small DOM helpers for every part of the page: every text goes in through textContent, never as
// markup.
/* exported byId, element, text */

function byId(id) {
  return document.getElementById(id);
}

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

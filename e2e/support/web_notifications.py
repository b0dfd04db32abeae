"""Seeing what a page does with the Web Notifications API and the tab's visibility, in Chromium.

`RECORD_NOTIFICATIONS` is an init script: every notification a page shows is also noted in
`window.shownNotifications` as `{title, body}` (the real one is still made). `BACKGROUND_TAB`
lets a test put the tab in the background (`window.hideTab(true)`): a headless browser's tabs are
always visible."""

RECORD_NOTIFICATIONS = """
(() => {
  const Real = window.Notification;
  if (!Real) return;
  window.shownNotifications = [];
  class Recorded extends Real {
    constructor(title, options = {}) {
      super(title, options);
      window.shownNotifications.push({ title, body: options.body });
    }
  }
  Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
  Recorded.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Recorded;
})();
"""

BACKGROUND_TAB = """
(() => {
  let hidden = false;
  Object.defineProperty(document, "visibilityState", { get: () => (hidden ? "hidden" : "visible") });
  Object.defineProperty(document, "hidden", { get: () => hidden });
  window.hideTab = (value) => {
    hidden = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""

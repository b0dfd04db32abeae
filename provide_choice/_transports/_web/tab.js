// The page's tab while its question waits: the count in its title, "(1) Database — provide-choice"
// (a batch is one question to answer), and a badge on its icon; both go once the question ended,
// and stay off while the person's settings switch the browser's alerts off. The title the server
// wrote is the one without the count.
/* exported tabAlert */

function tabAlert() {
  const plainTitle = document.title;
  const icon = document.querySelector('link[rel="icon"]');
  const plainIcon = icon.getAttribute("href");
  return (state) => {
    const waiting = state.status === "pending" && state.settings.alerts.browser ? 1 : 0;
    const title = waiting ? `(${waiting}) ${plainTitle}` : plainTitle;
    if (document.title !== title) document.title = title;
    const href = waiting ? icon.dataset.waiting : plainIcon;
    if (icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  };
}

// The countdown: runs locally between the server's states, and resyncs with every one of them (the
// server sends seconds left, never a clock time).
/* global words */
/* exported createCountdown */

const URGENT_SECONDS = 30;

function createCountdown(timer) {
  let secondsLeft = 0;
  let syncedAt = performance.now();
  return {
    sync(seconds) {
      secondsLeft = seconds;
      syncedAt = performance.now();
    },
    tick() {
      const elapsed = (performance.now() - syncedAt) / 1000;
      const left = Math.max(0, Math.ceil(secondsLeft - elapsed));
      timer.textContent = words().t("time_left", { time: words().clock(left) });
      timer.classList.toggle("urgent", left <= URGENT_SECONDS);
    },
  };
}

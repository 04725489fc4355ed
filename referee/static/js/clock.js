/* The clocks every game's pages show, counting down each second: the dispositions' clock
   (R10) and the move clock (R25), each an element with data-deadline (when it runs out, in
   the server's seconds) and data-now (the server's time when the page was drawn, so a phone
   whose own clock is wrong still counts right), and a .clock-left inside for the time left.
   When a clock runs out it is marked .late (which shows what a late clock offers, such as
   the stand-in offer of R25) and the buttons that wait for it ([data-enable-at]) come on.
   Each clock keeps its own timer, which stops once the clock has left the page. */

const clockText = (left) =>
  left ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left` : "time is up";

function tickOne(el) {
  const skew = Number.parseFloat(el.dataset.now) * 1000 - Date.now();
  const out = el.querySelector(".clock-left");
  const timer = { id: null };
  const tick = () => {
    if (!el.isConnected) {
      clearInterval(timer.id); // the page was redrawn without it
      return;
    }
    const due = Number.parseFloat(el.dataset.deadline) * 1000;
    if (!Number.isFinite(due)) return;
    const left = Math.max(0, Math.round((due - Date.now() - (skew || 0)) / 1000));
    if (out) out.textContent = clockText(left);
    el.classList.toggle("late", left === 0);
    if (!left) {
      for (const b of document.querySelectorAll("[data-enable-at]")) b.disabled = false;
    }
  };
  el.dataset.ticking = "yes";
  tick();
  timer.id = setInterval(tick, 1000);
}

/** Count down every [data-deadline] on the page not counting yet; call it again after the
    page is redrawn. */
export function startClocks() {
  for (const el of document.querySelectorAll("[data-deadline]:not([data-ticking])")) tickOne(el);
}

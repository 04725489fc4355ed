/* A page that reloads itself when its game moves on, for a game whose pages are drawn afresh
   on every change (the referee draws them, the script only marks them): it asks the game's
   status every 2 s and reloads on a new version, unless the player is busy choosing (then it
   shows the news, whose button reloads). */

/** Poll the page's ``data-poll`` URL; reload when the game's version is not the page's,
    unless ``busy()``: then unhide ``news`` (an element holding a button that reloads). */
export function reloadOnNews(busy, news) {
  const url = document.body.dataset.poll;
  const version = document.body.dataset.version;
  const button = news ? news.querySelector("button") : null;
  if (button) button.addEventListener("click", () => location.reload());
  if (!url || version === undefined) return;
  const tick = () => {
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null))
      .then((status) => {
        if (status && String(status.version) !== version) {
          if (busy()) {
            if (news) news.hidden = false;
          } else {
            location.reload();
            return;
          }
        }
        setTimeout(tick, 2000);
      })
      .catch(() => setTimeout(tick, 4000));
  };
  setTimeout(tick, 2000);
}

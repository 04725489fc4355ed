/* Following a game: its status pushed on the stream beside body[data-poll] (".../stream"),
   polled every body[data-poll-ms] ms (the referee's POLL_MS, 2 s by default) only while the
   stream is not heard. */

/** Call onStatus(status) whenever the game may have changed (perhaps twice alike). */
export function follow(onStatus) {
  const url = document.body.dataset.poll;
  if (!url) return;
  const seen = { etag: null, heard: 0, es: null, given: false };
  const give = (st) => st && !st.errors && onStatus(st);
  const check = () => {
    const headers = { Accept: "application/json" };
    if (seen.etag) headers["If-None-Match"] = seen.etag;
    fetch(url, { headers, cache: "no-store" })
      .then((r) => {
        if (r.status !== 200) return null;
        seen.etag = r.headers.get("ETag");
        return r.json();
      })
      .then(give)
      .catch(() => {});
  };
  const open = () => {
    if (seen.given || !window.EventSource) return;
    const es = new EventSource(url.replace(/\/status$/, "/stream"));
    const at = Date.now();
    const heard = () => {
      seen.heard = Date.now();
    };
    seen.es = es;
    es.addEventListener("ping", heard);
    for (const name of ["status", "host"]) {
      es.addEventListener(name, (e) => {
        heard();
        give(JSON.parse(e.data));
      });
    }
    es.addEventListener("error", () => {
      seen.heard = 0; // reconnecting (poll meanwhile), or refused
      if (es.readyState === 2) seen.es = null;
    });
    setTimeout(() => {
      if (seen.es === es && seen.heard < at) {
        es.close(); // nothing came through (a buffering proxy): poll from now on
        seen.es = null;
        seen.given = true;
      }
    }, 10000);
  };
  setInterval(
    () => (seen.es && Date.now() - seen.heard < 40000) || check(),
    Number.parseInt(document.body.dataset.pollMs, 10) || 2000,
  );
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    check(); // woken from sleep: catch up at once
    if (!seen.es) open();
  });
  open();
  if (!seen.es) check();
}

/* Small helpers every game's pages share: find, read the embedded page data, post JSON, fill a
   list, say what the referee refused; and what every page has: one-tap forms (sent once,
   confirmed where asked), copy and print buttons. */

export const $ = (selector, root = document) => root.querySelector(selector);

/** Every element the selector finds, as an array. */
export const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1); // "Salvo"

/** The page's own data block (#page-data), or null on a page without one. */
export function pageData(doc = document) {
  const el = doc.getElementById("page-data");
  return el ? JSON.parse(el.textContent) : null;
}

/** POST a JSON body with the page's CSRF token; the fetch promise. */
export function postJson(url, body) {
  const token = $('meta[name="csrf-token"]').content;
  return fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      "X-CSRFToken": token,
    },
    body: JSON.stringify(body),
  });
}

/** Replace a list's items with these texts. */
export function fillList(list, texts) {
  list.innerHTML = "";
  for (const text of texts) {
    const li = document.createElement("li");
    li.textContent = text;
    list.appendChild(li);
  }
}

/** One problem or error of the referee's (the error format of docs/api.md) as a line: its
    ruling first where it names one. */
export const problemLine = (p) => (p.rule ? `${p.rule}: ${p.message}` : p.message);

/** What a refused request says, every problem with its ruling; ``otherwise`` when the answer
    holds no errors (a proxy's page, an empty body). */
export function refusal(body, otherwise = "The referee refused it") {
  const errors = Array.isArray(body?.errors) ? body.errors : [];
  return errors.map(problemLine).join("; ") || otherwise;
}

function onceForms() {
  for (const form of document.querySelectorAll("form.once")) {
    form.addEventListener("submit", (e) => {
      if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
        e.preventDefault();
        return;
      }
      if (form.dataset.sent) {
        e.preventDefault();
        return;
      }
      form.dataset.sent = "1";
      for (const b of form.querySelectorAll("button[type=submit]")) {
        b.disabled = true;
        b.textContent = "Sending…";
      }
    });
  }
}

function copyButtons() {
  for (const b of document.querySelectorAll(".copy-button")) {
    b.addEventListener("click", () => {
      const input = document.getElementById(b.dataset.copy);
      input.select();
      const copied = () => {
        b.textContent = "Copied";
      };
      const written = navigator.clipboard
        ? navigator.clipboard.writeText(input.value)
        : Promise.reject();
      written.then(copied, () => {
        document.execCommand("copy");
        copied();
      });
    });
  }
}

/** Call it again after a page's main is swapped in. */
export function everyPage() {
  onceForms();
  copyButtons();
  for (const b of document.querySelectorAll(".print-button")) {
    b.addEventListener("click", () => window.print());
  }
}

/* Small helpers for the page: find, read the embedded page data, post JSON, fill a list. */

export const $ = (selector, root = document) => root.querySelector(selector);

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

/* A sign that a box scrolls sideways (a wide table, a line of chips): its wrapper, .scroll-hint
   (made here for a table that has none), is marked on the side where more of it lies
   (data-more: left, right or both), which the style sheet shows with a fade and an arrow. */
export function hintScroll(box) {
  let wrap = box.parentElement;
  if (!wrap.classList.contains("scroll-hint")) {
    wrap = document.createElement("div");
    wrap.className = "scroll-hint";
    box.replaceWith(wrap);
    wrap.append(box);
  }
  const mark = () => {
    const left = box.scrollLeft > 2;
    const right = box.scrollLeft + box.clientWidth < box.scrollWidth - 2;
    wrap.dataset.more = left ? (right ? "both" : "left") : right ? "right" : "";
  };
  box.onscroll = mark;
  mark();
}

/** Every wide table of the page. */
export const hintScrolls = () => {
  for (const box of document.querySelectorAll(".table-wrap")) hintScroll(box);
};

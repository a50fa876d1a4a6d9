// Small enhancements on top of pages that work without JavaScript.
// A "copy" button copies the text of the element its data-copy names; it stays hidden without JS.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const source = document.getElementById(button.dataset.copy);
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent).then(() => {
    const label = button.textContent;
    button.textContent = "Copied";
    setTimeout(() => { button.textContent = label; }, 1600);
  });
});
// Only the copy buttons change: a class on <html> would restyle the whole page once it has been laid out.
for (const button of document.querySelectorAll(".copy-button[data-copy]")) button.classList.add("ready");

// When htmx replaces a list the link that was clicked goes with it, and keyboard focus would fall back to
// the top of the page: put it on the new list's heading instead.
document.addEventListener("htmx:afterSettle", (event) => {
  const swapped = document.getElementById(event.detail.target?.id || "");
  const active = document.activeElement;
  if (!swapped || (active && active !== document.body && document.contains(active))) return;
  const heading = swapped.querySelector("h2, .list-summary");
  if (!heading) return;
  heading.setAttribute("tabindex", "-1");
  heading.focus({ preventScroll: true });
});

// htmx redraws the search results with their filters: a filters disclosure the reader opened (on a narrow
// screen) stays open across the redraw.
let filtersOpen = false;
document.addEventListener("htmx:beforeSwap", () => {
  filtersOpen = Boolean(document.querySelector(".filters-disclosure[open]"));
});
document.addEventListener("htmx:afterSwap", () => {
  const disclosure = document.querySelector(".filters-disclosure");
  if (disclosure && filtersOpen) disclosure.open = true;
});

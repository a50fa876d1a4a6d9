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
document.documentElement.classList.add("js");

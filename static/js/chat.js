// Chat with the papers: the dock's panel, and answers streamed in as Server-Sent Events. Everything here
// enhances pages that work without it: the dock's link opens the question page, the forms post, and the
// conversation page shows the whole answer.
(() => {
  const panel = () => document.getElementById("chat-panel");
  const opener = () => document.getElementById("chat-dock-open");

  function setOpen(open) {
    const box = panel();
    const button = opener();
    if (!box || !button) return;
    box.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) box.querySelector("textarea")?.focus();
    else button.focus();
  }

  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!event.detail.elt.matches?.("[data-chat-open]")) return;
    const box = panel();
    if (box && !box.hidden) { event.preventDefault(); setOpen(false); return; }  // the button toggles
    if (box && box.childElementCount) { event.preventDefault(); setOpen(true); }  // keep the conversation
  });

  // On a search page the results (and the address) follow the typing: ask about the ones shown now.
  document.addEventListener("htmx:configRequest", (event) => {
    const element = event.detail.elt;
    if (!element.matches?.("[data-chat-open]") || element.dataset.scopeKind !== "search") return;
    const params = new URLSearchParams(window.location.search);
    params.delete("page");
    if (params.get("q")) event.detail.path = `${element.pathname}?scope=${encodeURIComponent(`search:${params}`)}`;
  });

  // A question refused (too long, too many) comes back as the form with its message: show it.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const status = event.detail.xhr.status;
    const chat = event.detail.elt.closest?.("[data-chat-form], [data-chat-open], .chat-panel");
    if (chat && (status === 400 || status === 429)) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-chat-close]")) setOpen(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && panel()?.contains(document.activeElement)) setOpen(false);
  });

  function stream(item) {
    if (item.dataset.started) return;
    item.dataset.started = "1";
    const text = item.querySelector(".answer-text");
    const wait = item.querySelector(".chat-wait");
    const source = new EventSource(item.dataset.chatStream);
    let failures = 0;
    source.addEventListener("delta", (event) => {
      if (wait) wait.hidden = true;
      text.textContent += JSON.parse(event.data).text;
    });
    source.addEventListener("done", (event) => {
      source.close();
      const template = document.createElement("template");
      template.innerHTML = JSON.parse(event.data).html.trim();  // rendered and sanitised by the server
      item.replaceWith(template.content);
    });
    source.addEventListener("error", () => {
      failures += 1;
      if (failures > 5) {
        source.close();
        if (wait) { wait.hidden = false; wait.textContent = "The answer did not arrive. Reload the page to see it."; }
      }
    });
  }

  function startStreams() {
    document.querySelectorAll("[data-chat-stream]").forEach(stream);
  }

  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.detail.target?.id === "chat-panel") setOpen(true);
    startStreams();
    const last = document.querySelector("[data-chat-stream]:last-of-type");
    last?.scrollIntoView({ block: "nearest" });
  });
  startStreams();
})();

// A projection's page (a recap, the Exposure timeline, the dice statistics), live: when the
// campaign's event stream says a ruling was recorded, the page fetches itself again and shows
// the new version in place. The page has no forms, so its whole body is swapped. No library.
"use strict";
(() => {
  const me = document.currentScript;
  if (!me || !window.EventSource) return;
  let waiting = null;

  async function refresh() {
    waiting = null;
    const response = await fetch(location.href, { headers: { accept: "text/html" } });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    document.body.replaceWith(fresh.body); // its script is not run again: one stream stays open
    document.body.dataset.refreshed = String(Number(me.dataset.refreshed || 0) + 1);
    me.dataset.refreshed = document.body.dataset.refreshed;
  }

  const source = new EventSource(me.dataset.events);
  source.addEventListener("changed", () => {
    if (waiting === null) waiting = setTimeout(refresh, 150); // a burst of rulings: one fetch
  });
})();

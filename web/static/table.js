// The table page, live. Without this script every form still works (a plain POST to the page's
// /act, answered by a redirect); with it, forms post to the JSON API (with the CSRF cookie's
// value in x-csrftoken), a refusal shows its one line under its form, and when the server-sent
// events say a ruling was recorded the page fetches itself again and swaps its live sections:
// the header, the thread (in the server's order), the panels and the forms (typed values and
// open forms are kept). The page opens at what is new to the member (``#new``, when the address
// names no place), and is marked read as it shows new rulings while it is looked at (fetched with
// ``away`` while it is not, then again once it is). No library.
"use strict";
(() => {
  const root = document.getElementById("table");
  if (!root) return;
  const api = root.dataset.api;
  const page = root.dataset.page;

  const csrf = () => {
    const found = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
    return found ? decodeURIComponent(found.slice("csrftoken=".length)) : "";
  };
  const list = (text) => text.split(",").map((s) => s.trim()).filter((s) => s !== "");
  const number = (text) => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim());

  // One form's fields as the API's JSON: {params, dice, hidden} or the correction's body.
  function payload(form) {
    const params = {};
    const extra = {};
    for (const el of form.querySelectorAll("[name][data-kind]")) {
      const kind = el.dataset.kind;
      const value = el.type === "checkbox" ? el.checked : el.value;
      if (kind === "say") { if (value.trim()) extra.say = value; continue; }
      if (kind === "speaker") {
        if (value.startsWith("character:")) params.character = value.slice("character:".length);
        else if (value === "ooc") params.ooc = true;
        else if (value === "npc") params.npc = form.querySelector("[data-kind=npc]").value;
        continue;
      }
      if (kind === "npc") continue;
      if (kind === "to") { if (value) params.to = [value]; continue; }
      if (kind === "bool") { if (value) params[el.name] = true; continue; }
      if (kind === "hidden") { if (value) extra.hidden = true; continue; }
      if (kind === "flag") { if (value) extra[value] = true; continue; }
      if (kind === "change") { (extra.changes ||= {})[el.name] = value; continue; }
      if (kind === "dice") { if (value.trim()) extra.dice = list(value).map(number); continue; }
      if (value === "") { if ("null" in el.dataset) params[el.name] = null; continue; }
      if (kind === "int") params[el.name] = number(value);
      else if (kind === "list-str") params[el.name] = list(value);
      else if (kind === "list-int") params[el.name] = list(value).map(number);
      else if (kind === "changes") {
        params[el.name] = Object.fromEntries(value.split("\n").filter((l) => l.includes("="))
          .map((l) => [l.slice(0, l.indexOf("=")).trim(), l.slice(l.indexOf("=") + 1).trim()]));
      } else params[el.name] = value;
    }
    return form.dataset.shape === "body" ? { ...params, ...extra } : { params, ...extra };
  }

  // --- A roll sealed in this browser (protocol 3) ---------------------------------------------
  // When the member's seat holds the key this browser made for them (on the dice page, in
  // IndexedDB "campaign-log-keys"), a roll they ask for here with no faces typed is sealed: the
  // server gives the text to sign (``seal-text``: the commitment, the member, which of their
  // sealed rolls it is, the command as it will be recorded), the browser signs it, keeps the
  // text and the signature (IndexedDB "campaign-log-sealed", so the dice page can list a sealed
  // roll the log lacks), and sends the signature as the roll's ``seal``. Its dice then come from
  // the committed seed and this signature, which nobody without the key can make.
  const idb = (name, store) => new Promise((done, failed) => {
    const opening = indexedDB.open(name, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(store);
    opening.onsuccess = () => done(opening.result);
    opening.onerror = () => failed(opening.error);
  });
  async function inStore(name, store, mode, act) {
    const db = await idb(name, store);
    try {
      return await new Promise((done, failed) => {
        const request = act(db.transaction(store, mode).objectStore(store));
        request.onsuccess = () => done(request.result);
        request.onerror = () => failed(request.error);
      });
    } finally {
      db.close();
    }
  }
  let sealer = null; // the key this browser holds for the seat, once found to be the seat's
  async function findSealer() {
    const { sealCampaign: campaign, sealMember: member, sealKey: key } = root.dataset;
    sealer = null;
    if (!key || !window.indexedDB || !window.crypto || !crypto.subtle) return;
    const name = JSON.stringify([campaign, member]);
    const held = await inStore("campaign-log-keys", "keys", "readonly", (k) => k.get(name)).catch(() => null);
    if (held && held.public === key) sealer = held;
    markSealing();
  }
  function markSealing() {
    for (const form of document.querySelectorAll("form.post[data-rolls]")) {
      let note = form.querySelector(".seal-note");
      if (!sealer) { if (note) note.remove(); continue; }
      if (note) continue;
      note = document.createElement("p");
      note.className = "meta seal-note";
      note.textContent = "Sealed by the key this browser holds for you (unless you type faces): " +
        "its dice come from your signature too, so the GM's machine cannot foresee them.";
      form.querySelector("button[type=submit]").before(note);
    }
  }
  const sealable = (form, body) => sealer && form.matches("[data-rolls]") && !body.dice && !body.hidden;
  async function sealFor(form, body) {
    const asked = await fetch(`${api}/seal-text`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrftoken": csrf() },
      body: JSON.stringify({ command: form.dataset.verb, params: body.params }),
    });
    const given = await asked.json().catch(() => ({}));
    if (!asked.ok) return { refused: given.error || {} };
    const text = new TextEncoder().encode(given.text);
    const signed = await crypto.subtle.sign({ name: "Ed25519" }, sealer.privateKey, text);
    const seal = [...new Uint8Array(signed)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const kept = { campaign: root.dataset.sealCampaign, member: root.dataset.sealMember,
      text: given.text, seal, at: new Date().toISOString(), answer: "" };
    await inStore("campaign-log-sealed", "sealed", "readwrite", (j) => j.put(kept, seal));
    return { seal, kept };
  }
  async function answered(kept, answer) {
    kept.answer = answer;
    await inStore("campaign-log-sealed", "sealed", "readwrite", (j) => j.put(kept, kept.seal)).catch(() => null);
  }
  findSealer().catch(() => null);
  document.addEventListener("table:refreshed", markSealing);

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (form.matches("[data-signout]")) {
      event.preventDefault();
      await fetch(form.action, { method: "POST", headers: { "x-csrftoken": csrf() } });
      location.assign("/"); // the campaigns this browser is still signed in to
      return;
    }
    if (!form.matches("form.post")) return;
    event.preventDefault();
    busy += 1; // the page is not swapped under a form being sent
    const said = form.querySelector("output.said");
    const button = form.querySelector("button[type=submit]");
    let refused = null;
    button.disabled = true;
    said.textContent = "…";
    said.className = "said";
    try {
      const asked = payload(form);
      const sealed = sealable(form, asked) ? await sealFor(form, asked) : {};
      let response = null;
      let body = { error: sealed.refused };
      if (!sealed.refused) {
        if (sealed.seal) asked.seal = sealed.seal;
        response = await fetch(`${api}/${form.dataset.path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-csrftoken": csrf() },
          body: JSON.stringify(asked),
        });
        body = await response.json().catch(() => ({}));
      }
      if (response && response.ok) {
        said.textContent = `recorded as #${body.ruling}${sealed.seal ? ", sealed by you" : ""}`;
        form.reset();
        deferred = true;
      } else {
        const error = body.error || {};
        const status = response ? response.status : "";
        said.textContent = `${error.code || status}: ${error.message || (response && response.statusText)}`;
        said.className = "said refusal";
        refused = said;
      }
      if (sealed.kept) await answered(sealed.kept, response && response.ok ? `#${body.ruling}` : `refused ${(body.error || {}).code || response.status}`);
    } catch (problem) {
      said.textContent = `not sent: ${problem}`;
      said.className = "said refusal";
      refused = said;
    } finally {
      button.disabled = false;
      if (refused) { refused.tabIndex = -1; refused.focus(); } // the line, at its form
      busy -= 1;
      if (deferred && busy === 0) refreshSoon();
    }
  });

  // Bring the live sections up to the server's copy: an unchanged part is left alone, a part
  // that holds the focus waits until the member leaves it (nothing they type is lost), and a
  // replaced part keeps what was typed and opened in it. The log is done ruling by ruling.
  const served = new WeakMap(); // element -> the server's HTML it was made from
  const mark = (el) => served.set(el, el.outerHTML);
  const focused = (el) => el.contains(document.activeElement) && document.activeElement !== document.body;

  function carry(now, next) {
    for (const el of now.querySelectorAll("input[id], select[id], textarea[id]")) {
      const twin = next.querySelector(`#${CSS.escape(el.id)}`);
      if (!twin || el.type === "hidden") continue;
      if (el.type === "checkbox") twin.checked = el.checked;
      else if (el.tagName === "SELECT") {
        const given = [...el.options].find((o) => o.defaultSelected) || el.options[0];
        if (!given || el.value !== given.value) twin.value = el.value; // chosen here, kept
      } else if (el.value !== el.defaultValue) twin.value = el.value;
    }
    for (const el of now.querySelectorAll("details[id]")) {
      const twin = next.querySelector(`#${CSS.escape(el.id)}`);
      if (twin) twin.open = el.open;
    }
    for (const el of now.querySelectorAll("output.said")) {
      const form = el.closest("details[id]");
      const twin = form && next.querySelector(`#${CSS.escape(form.id)} output.said`);
      if (twin) { twin.textContent = el.textContent; twin.className = el.className; }
    }
  }

  // Replace ``now`` by ``next`` unless nothing changed; false: it holds the focus, later.
  function update(now, next) {
    const html = next.outerHTML;
    if (served.get(now) === html) return true;
    if (focused(now) && !(choosing && now.id === "forms")) return false;
    carry(now, next);
    served.set(next, html);
    now.replaceWith(next);
    return true;
  }

  function swap(fresh) {
    let done = true;
    for (const next of fresh.querySelectorAll("[data-live][id]")) {
      const now = document.getElementById(next.id);
      if (!now) continue;
      if (next.id !== "log") { done = update(now, next) && done; continue; }
      // The thread in the server's order: an entry shown again (a hidden roll revealed) goes
      // back to its place, not to the end.
      const wanted = new Set([...next.children].map((entry) => entry.id));
      for (const old of [...now.children]) if (!wanted.has(old.id) && !focused(old)) old.remove();
      let before = null; // the entry placed last
      for (const entry of [...next.children]) {
        let here = document.getElementById(entry.id);
        if (here && here.parentElement === now) {
          if (update(here, entry)) here = document.getElementById(entry.id);
          else done = false;
        } else {
          served.set(entry, entry.outerHTML);
          here = entry;
        }
        const place = before ? before.nextElementSibling : now.firstElementChild;
        if (place !== here) now.insertBefore(here, place);
        before = here;
      }
    }
    const after = fresh.getElementById("table");
    if (after) {
      root.dataset.after = after.dataset.after;
      if (after.dataset.sealKey !== root.dataset.sealKey) { // a session began or ended, a new key
        for (const name of ["sealCampaign", "sealMember", "sealKey"]) {
          if (after.dataset[name] === undefined) delete root.dataset[name];
          else root.dataset[name] = after.dataset[name];
        }
        findSealer().catch(() => null);
      }
    }
    return done;
  }
  for (const el of document.querySelectorAll("[data-live][id]:not(#log), #log > [id]")) mark(el);

  let pending = null;
  let choosing = false; // the actions were asked for another character: swap them now
  let busy = 0;
  let deferred = false;
  let waiting = false;
  document.addEventListener("focusout", () => {
    if (waiting) { waiting = false; setTimeout(refreshSoon, 0); }
  });
  async function refresh() {
    pending = null;
    if (busy > 0) { deferred = true; return; }
    deferred = false;
    const response = await fetch(address(), { headers: { accept: "text/html" } });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    if (fresh.title) document.title = fresh.title; // how many are new, as the server counts
    if (busy > 0) { deferred = true; return; } // a form went out meanwhile: swap after it
    const chooser = document.activeElement && document.activeElement.id === "f-for";
    if (!swap(fresh)) waiting = true; // the rest once the focus leaves what holds it
    if (choosing && chooser) document.getElementById("f-for")?.focus();
    choosing = false;
    document.dispatchEvent(new CustomEvent("table:refreshed"));
  }
  function refreshSoon() {
    if (!pending) pending = setTimeout(refresh, 50);
  }

  // The page as the server renders it now, marking new what is new since the page opened
  // (``since``), and marked read unless nobody looks at it (``away``: then once they do).
  let unmarked = false;
  function address() {
    const url = new URL(location.pathname + location.search, location.origin);
    if (root.dataset.since !== undefined) url.searchParams.set("since", root.dataset.since);
    unmarked = document.visibilityState !== "visible";
    if (unmarked) url.searchParams.set("away", "true");
    return url;
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && unmarked) refreshSoon();
  });

  // Open at what is new (the page's #new: the first entry new to the member, else the last),
  // unless the address names a place of its own (a ruling just recorded, a link).
  if (!location.hash && document.getElementById("new")) location.replace("#new");

  // The Write button stays in a corner until the post box is wholly in sight: the box on the
  // page, the one a refresh swapped in included (the old one, detached, is seen no more).
  const write = document.getElementById("write-now");
  if (write && "IntersectionObserver" in window) {
    let box = null;
    const seen = (entries) => { // the box watched now: an entry of the one before is stale
      const mine = entries.filter((entry) => entry.target === box).pop();
      if (mine) write.classList.toggle("by", mine.intersectionRatio >= 0.99);
    };
    const sight = new IntersectionObserver(seen, { threshold: [0, 0.99] });
    const follow = () => {
      const now = document.getElementById("f-post-text");
      if (now === box) return;
      if (box) sight.unobserve(box);
      write.classList.remove("by"); // until the new box is seen (observe reports it at once)
      box = now;
      if (box) sight.observe(box);
    };
    follow();
    document.addEventListener("table:refreshed", follow);
  }

  // The actions are for the character chosen beside them (a plain GET form without this
  // script): a new choice, or writing as another character in the composer, fetches the
  // page for it and swaps the actions in place.
  function actFor(name) {
    const url = new URL(location.href);
    if (name) url.searchParams.set("character", name);
    else url.searchParams.delete("character");
    history.replaceState(null, "", url);
    choosing = true;
    refreshSoon();
  }
  document.addEventListener("change", (event) => {
    const el = event.target;
    if (el.matches("[data-for]")) actFor(el.value);
    else if (el.id === "f-post-speaker" && el.value.startsWith("character:")) {
      const name = el.value.slice("character:".length);
      const chooser = document.querySelector("[data-for]");
      if (chooser && [...chooser.options].some((o) => o.value === name) && chooser.value !== name) {
        chooser.value = name;
        actFor(name);
      }
    }
  });
  document.addEventListener("submit", (event) => {
    if (event.target.id === "for-form") { event.preventDefault(); actFor(event.target.elements.character.value); }
  });

  const live = document.getElementById("live");
  const source = new EventSource(`${page}/events?after=${root.dataset.after}`);
  source.addEventListener("open", () => { live.textContent = "live"; live.className = "live on"; });
  source.addEventListener("error", () => { live.textContent = "reconnecting"; live.className = "live"; });
  // A new ruling: the page as the server renders it now (the entry in its place, folded
  // corrections, the header and the forms), rather than the event's own copy of the entry.
  source.addEventListener("ruling", refreshSoon);
  source.addEventListener("changed", refreshSoon);
})();

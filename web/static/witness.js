// Witnesses in the member's browser (web/witness.py): every head of the log a page shows this
// member (the table page, after each ruling; the dice page) is kept in this browser's IndexedDB
// ("campaign-log-witness"), as a witness statement signed with the key this browser holds for
// them (the dice page's Ed25519 key, "campaign-log-keys"; unsigned when it holds none), the
// bytes docs/format.md specifies ("Witness statements"). No account is needed: it stays here.
//
// On the dice page it compares the log with every head this browser kept of the campaign (and
// the statements of a witness file the member chooses): the log's heads at those versions are
// asked of the server, and the first head the log no longer holds is named, with who saw it and
// when (a fork: the log was rewritten since). It also offers this browser's statements as a
// witness file, for `campaign verify --witness` and `campaign verify-dice --witness`.
"use strict";

const witness = (() => {
  const utf8 = new TextEncoder();
  const WITNESS = "campaign-log witness 1";
  const BATCH = 200; // versions asked for at once (web/witness.py MOST_ASKED)
  const HOLDS = "holds";
  const UNSIGNED = "unsigned";
  const FORGED = "does not hold";

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function fromHex(text) {
    if (typeof text !== "string" || !/^([0-9a-fA-F]{2})*$/.test(text)) return null;
    return new Uint8Array(text.match(/../g)?.map((pair) => parseInt(pair, 16)) || []);
  }

  // The bytes signed: twelve lines joined by "\n", UTF-8 (engine/audit/witness.py message).
  function message(s) {
    const session = s.session === null || s.session === undefined ? "" : String(s.session);
    const lines = [WITNESS, s.campaign, s.name, String(s.ruling), String(s.version), s.link];
    lines.push(s.digest, session, s.seal || "", s.at, s.by, s.seen);
    return utf8.encode(lines.join("\n"));
  }

  // Python orders keys by code point; a statement's keys are ASCII, so sort() is that order.
  function line(s) {
    const keys = Object.keys(s).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(s[k])}`).join(",")}}`;
  }

  function stamp(now = new Date()) {
    return `${now.toISOString().slice(0, 19)}Z`;
  }

  function statementOf(head, at, by, seen) {
    return {
      statement: WITNESS,
      campaign: head.campaign,
      name: head.name,
      ruling: head.ruling,
      version: head.version,
      link: head.link,
      digest: head.digest,
      session: head.session === undefined ? null : head.session,
      seal: head.seal || "",
      at,
      by,
      seen,
      key: "",
      signature: "",
    };
  }

  async function signatureHolds(s) {
    const key = fromHex(s.key);
    const signature = fromHex(s.signature);
    if (!key || key.length !== 32 || !signature || signature.length !== 64) return false;
    try {
      const publicKey = await crypto.subtle.importKey("raw", key, { name: "Ed25519" }, false, [
        "verify",
      ]);
      return await crypto.subtle.verify({ name: "Ed25519" }, publicKey, signature, message(s));
    } catch (problem) {
      return false;
    }
  }

  async function signatureOf(s) {
    if (!s.key) return UNSIGNED;
    return (await signatureHolds(s)) ? HOLDS : FORGED;
  }

  // --- what this browser keeps ----------------------------------------------------------------

  function opened(name, store) {
    return new Promise((done, failed) => {
      const opening = indexedDB.open(name, 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore(store);
      opening.onsuccess = () => done(opening.result);
      opening.onerror = () => failed(opening.error);
    });
  }

  async function stored(name, store, mode, act) {
    const db = await opened(name, store);
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

  const heads = (mode, act) => stored("campaign-log-witness", "heads", mode, act);

  // The key the dice page made for this member of this campaign (dice_check.js keyName).
  function heldKey(campaign, member) {
    const name = JSON.stringify([campaign, member]);
    return stored("campaign-log-keys", "keys", "readonly", (keys) => keys.get(name));
  }

  // One statement per head, member and key: shown again, the first is kept.
  function keyOf(s) {
    return [s.campaign, s.version, s.link, s.digest, s.by, s.key].join(" ");
  }

  async function keep(s) {
    const id = keyOf(s);
    const known = await heads("readonly", (store) => store.get(id));
    if (!known) await heads("readwrite", (store) => store.put(s, id));
    return known || s;
  }

  // Sign and keep the head ``data`` shows (a page's #witness-data).
  async function remember(data) {
    const s = statementOf(data.head, stamp(), data.me, data.seen);
    const held = await heldKey(data.campaign, data.me).catch(() => null);
    if (held && held.privateKey) {
      s.key = held.public;
      const signed = await crypto.subtle.sign({ name: "Ed25519" }, held.privateKey, message(s));
      s.signature = hex(signed);
    }
    return keep(s);
  }

  async function kept(campaign) {
    const all = await heads("readonly", (store) => store.getAll());
    return all.filter((s) => s.campaign === campaign);
  }

  // --- the log against what was witnessed -----------------------------------------------------

  async function logged(data, versions) {
    const found = new Map();
    for (let at = 0; at < versions.length; at += BATCH) {
      const asked = versions.slice(at, at + BATCH).join(",");
      const response = await fetch(`${data.heads}?at=${asked}`, {
        headers: { accept: "application/json" },
      });
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      for (const head of (await response.json()).heads) found.set(head.version, head);
    }
    return found;
  }

  // Why the log does not hold statement s's head ("" when it does), as
  // engine/audit/witnessed.py words it.
  function problemOf(s, log) {
    if (!log || log.missing) {
      return `the log does not hold version ${s.version}: ${log ? log.missing : "no answer"}`;
    }
    if (log.ruling !== s.ruling || log.link !== s.link) {
      const first = Math.min(s.ruling, log.ruling);
      return (
        `the campaign's stream at version ${s.version} is not the one they saw (ruling ` +
        `${log.ruling}, link ${log.link.slice(0, 16)}): it was rewritten at or before ` +
        `ruling ${first}`
      );
    }
    if (log.digest !== s.digest) {
      return (
        `the streams' heads at ruling ${s.ruling} are not those they saw (digest ` +
        `${log.digest.slice(0, 16)}): a stream was rewritten at or before ruling ${s.ruling}`
      );
    }
    if ((log.session ?? null) !== (s.session ?? null) || (log.seal || "") !== (s.seal || "")) {
      return (
        `the last seal before ruling ${s.ruling} is not the one they saw (session ` +
        `${log.session}, ${(log.seal || "").slice(0, 16) || "none"})`
      );
    }
    return "";
  }

  // Every statement of the campaign checked, in the order of their heads, and the fork: the
  // first head the log no longer holds, by a statement whose signature does not fail.
  async function check(data, statements) {
    const mine = statements
      .filter((s) => s.campaign === data.head.campaign)
      .sort((a, b) => a.version - b.version || (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    const versions = [...new Set(mine.map((s) => s.version))];
    const log = await logged(data, versions);
    const checked = [];
    for (const s of mine) {
      const problem = problemOf(s, log.get(s.version));
      checked.push({ statement: s, signature: await signatureOf(s), problem });
    }
    const fork = checked.find((c) => c.problem && c.signature !== FORGED) || null;
    return { checked, fork, others: statements.length - mine.length };
  }

  // A witness file's statements (one JSON object a line; other lines are skipped, so a message
  // of the app's pasted whole reads too).
  function parse(text) {
    const found = [];
    for (const raw of text.split("\n")) {
      const trimmed = raw.trim();
      if (!trimmed.startsWith("{")) continue;
      try {
        const s = JSON.parse(trimmed);
        if (s && s.statement === WITNESS) found.push(s);
      } catch (problem) {
        // a line of prose that opens with a brace
      }
    }
    return found;
  }

  // --- on the pages -----------------------------------------------------------------------------

  function element(tag, text, attributes = {}) {
    const made = document.createElement(tag);
    if (text !== null && text !== undefined) made.textContent = text;
    for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
    return made;
  }

  function pageData() {
    const found = document.getElementById("witness-data");
    return found ? JSON.parse(found.textContent) : null;
  }

  async function witnessed() {
    const data = pageData();
    const said = document.getElementById("witness-said");
    if (!data || !window.indexedDB || !window.crypto || !crypto.subtle) return null;
    try {
      const s = await remember(data);
      if (said) {
        said.dataset.status = s.key ? "signed" : "unsigned";
        said.textContent = s.key
          ? "Your browser keeps it, signed with your key."
          : "Your browser keeps it (unsigned: it holds no key of yours; make one on the dice " +
            "page).";
      }
      return s;
    } catch (problem) {
      if (said) said.textContent = `Your browser could not keep it (${problem}).`;
      return null;
    }
  }

  function forkText(c) {
    const s = c.statement;
    const signed = c.signature === HOLDS ? "signed" : c.signature;
    return (
      `ruling ${s.ruling} (version ${s.version}), seen by ${s.by || "someone"} at ${s.at} ` +
      `(${s.seen}, ${signed}), is not in the log: ${c.problem}`
    );
  }

  function download(statements) {
    const text = statements.map((s) => `${line(s)}\n`).join("");
    const link = element("a", "Download this browser's witness file", {
      id: "witness-download",
      download: "witness.jsonl",
      href: URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" })),
    });
    return link;
  }

  async function showCheck(place, data, extra = []) {
    const own = await kept(data.head.campaign);
    const result = await check(data, [...own, ...extra]);
    place.replaceChildren(element("h2", "Witnessed heads"));
    const summary = element("p", null, { id: "witness-summary" });
    if (result.fork) {
      place.dataset.status = "fork";
      summary.className = "fork";
      summary.textContent = `FORK: ${forkText(result.fork)}`;
      const after = result.checked.filter(
        (c) => c.problem && c !== result.fork && c.signature !== FORGED,
      );
      place.append(summary);
      if (after.length) {
        const more = `And ${after.length} more heads witnessed after it are not in the log.`;
        place.append(element("p", more));
      }
    } else {
      place.dataset.status = "held";
      summary.className = "held";
      const first = result.checked[0]?.statement.ruling;
      const last = result.checked[result.checked.length - 1]?.statement.ruling;
      const count = result.checked.length;
      summary.textContent = count
        ? `The log holds every head of ${count} statement${count === 1 ? "" : "s"} ` +
          `(rulings ${first} to ${last}).`
        : "No head of this campaign witnessed yet.";
      place.append(summary);
    }
    for (const c of result.checked.filter((x) => x.signature === FORGED)) {
      const who = `${c.statement.by} at ${c.statement.at}`;
      place.append(element("p", `Not evidence, its signature does not hold: ${who}.`));
    }
    const chooser = element("input", null, {
      type: "file",
      id: "witness-file",
      accept: ".jsonl,.json,.txt",
    });
    const label = element("label", "Check a witness file too: ", { for: "witness-file" });
    chooser.addEventListener("change", async () => {
      const chosen = chooser.files && chooser.files[0];
      if (chosen) await showCheck(place, data, parse(await chosen.text()));
    });
    place.append(element("p", null), label, chooser, " ", download(own));
    return result;
  }

  async function run() {
    const first = await witnessed();
    const place = document.getElementById("witness-check");
    const data = pageData();
    if (!place || !data) return;
    if (!first) {
      place.dataset.status = "unavailable";
      const missing = "This browser keeps no witnessed heads here (IndexedDB or WebCrypto is missing).";
      place.replaceChildren(element("p", missing));
      return;
    }
    try {
      await showCheck(place, data);
    } catch (problem) {
      place.dataset.status = "unavailable";
      place.replaceChildren(element("p", `The heads could not be compared: ${problem}`));
    }
  }

  if (typeof document !== "undefined" && document.getElementById("witness-data")) {
    run();
    document.addEventListener("table:refreshed", witnessed);
  }

  return { message, line, statementOf, signatureHolds, remember, kept, check, parse, problemOf };
})();

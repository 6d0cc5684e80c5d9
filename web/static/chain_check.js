// The links and seals of the member's own copy of the log, checked in their browser as
// docs/format.md says ("Links", "Seals", "The export's digest", "A member's copy") and as
// `campaign verify-dice FILE` checks the same file: every stream walked from its genesis, each
// row's link over its body's digest (a withheld row's digest as given; a row written before
// 2026-12-06 linked over the body itself), each session's seal over the heads it lists and the
// seal before it, and the copy's digest over every stream's head. Nothing here trusts the
// server's word but the file it sent. Uses diceCheck (dice_check.js: SHA-256, hex, canonical
// JSON, code-point order), loaded before it.
"use strict";

const chainCheck = (() => {
  const { sha256, hex, fromHex, utf8, canonical, compareText, concat } = diceCheck;
  const SEALED = "domain.events:SessionSealed";

  async function genesis(stream) {
    return hex(await sha256(utf8.encode(`campaign-log:${stream}`)));
  }

  // The two links a row may hold: over its body's digest, and (rows written before
  // 2026-12-06) over the body itself; a withheld row has its digest alone.
  async function links(previous, stream, version, topic, body, digest) {
    const place = utf8.encode(`${previous}\x00${stream}\x00${version}\x00${topic}\x00`);
    const overDigest = hex(await sha256(concat(utf8.encode("campaign-log link 2\x00"), place, digest)));
    const overBody = body === null ? null : hex(await sha256(concat(place, body)));
    return { overDigest, overBody };
  }

  function sortedHeads(heads) {
    return [...heads].sort((a, b) => compareText(a[0], b[0]) || a[1] - b[1] || compareText(a[2], b[2]));
  }

  async function sealDigest(listed, previous) {
    const value = previous ? { heads: listed, previous } : listed;
    return hex(await sha256(utf8.encode(canonical(value))));
  }

  // The file's lines checked: {events, streams, withheld, given, digest, seals, problems}.
  async function check(text) {
    const rows = text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
    const [header, ...lines] = rows;
    const out = { events: lines.length, streams: 0, withheld: 0, given: 0, digest: "", seals: [], problems: [] };
    const heads = new Map(); // stream -> [stream, version, link]
    const stored = new Map(); // "stream version" -> link
    const broken = new Set();
    const sealRows = [];
    for (const [i, row] of lines.entries()) {
      const { stream, version, topic } = row;
      const where = `line ${i + 2} (stream ${stream} version ${version})`;
      const head = heads.get(stream);
      const expected = head ? head[1] + 1 : 1;
      const previous = head ? head[2] : await genesis(stream);
      const withheld = row.withheld;
      const chain = withheld ? withheld.chain : row.event && row.event.chain;
      if (!broken.has(stream)) {
        let holds;
        if (version !== expected) {
          holds = false;
          out.problems.push(`${where}: version ${expected} is missing`);
        } else if (withheld) {
          out.withheld += 1;
          const digest = fromHex(withheld.digest || "");
          if (withheld.linked_over === "body") {
            out.given += 1; // its link is over bytes the copy does not hold: pinned by the next
            holds = true;
          } else {
            holds = digest !== null && digest.length === 32 &&
              (await links(previous, stream, version, topic, null, digest)).overDigest === chain;
          }
        } else {
          const body = { ...row.event };
          delete body.chain;
          const bytes = utf8.encode(canonical(body));
          const found = await links(previous, stream, version, topic, bytes, await sha256(bytes));
          holds = chain === found.overDigest || chain === found.overBody;
        }
        if (!holds) {
          broken.add(stream);
          if (version === expected) out.problems.push(`${where}: the event was changed or moved`);
        }
      }
      heads.set(stream, [stream, version, chain]);
      stored.set(`${stream} ${version}`, chain);
      if (topic === SEALED && row.event) sealRows.push(row.event.event);
    }
    out.streams = heads.size;
    out.digest = hex(await sha256(utf8.encode(canonical(sortedHeads(heads.values())))));
    if (header.digest !== out.digest) {
      out.problems.push(`the copy's digest is ${out.digest}, its header says ${header.digest}`);
    }
    let before = "";
    for (const sealed of sealRows) {
      const listed = sortedHeads(sealed.heads.map((h) => [h.stream, h.version, h.chain]));
      const problems = [];
      for (const [stream, version, chain] of listed) {
        if (stored.get(`${stream} ${version}`) !== chain) {
          problems.push(`stream ${stream} version ${version} is not the event it sealed`);
        }
      }
      const previous = sealed.previous || "";
      if ((await sealDigest(listed, previous)) !== sealed.digest) {
        problems.push("its digest is not over the heads it lists");
      }
      if (previous !== before) problems.push("it does not follow the seal before it");
      before = sealed.digest;
      out.seals.push({ session: sealed.number, digest: sealed.digest, problems });
      out.problems.push(...problems.map((p) => `session ${sealed.number}'s seal: ${p}`));
    }
    return out;
  }

  function element(tag, text, attributes = {}) {
    const made = document.createElement(tag);
    if (text !== null && text !== undefined) made.textContent = text;
    for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
    return made;
  }

  function show(place, result) {
    const ok = result.problems.length === 0;
    place.dataset.status = ok ? "intact" : "broken";
    const summary = ok
      ? `Every link of the ${result.events} events in ${result.streams} streams holds` +
        (result.withheld ? ` (${result.withheld} withheld from you, checked by their digests` +
          (result.given ? `, ${result.given} written before links over digests taken as given` : "") + ")" : "") +
        `, and every one of the ${result.seals.length} session seals; the copy's digest is ${result.digest}.`
      : `${result.problems.length} problems: the copy does not hold together.`;
    const list = element("ul", null, { class: "problems" });
    for (const problem of result.problems) list.append(element("li", problem));
    place.replaceChildren(element("p", summary, { id: "chain-summary" }), ...(ok ? [] : [list]));
  }

  async function run(button, place) {
    button.disabled = true;
    place.dataset.status = "checking";
    place.replaceChildren(element("p", "Checking every link and seal…"));
    try {
      const response = await fetch(button.dataset.copy, { headers: { accept: "application/x-ndjson" } });
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      show(place, await check(await response.text()));
    } catch (problem) {
      place.dataset.status = "unavailable";
      place.replaceChildren(element("p", `The copy could not be checked: ${problem}`));
    } finally {
      button.disabled = false;
    }
  }

  if (typeof document !== "undefined") {
    const button = document.getElementById("check-chains");
    const place = document.getElementById("chain-check");
    if (button && place && window.crypto && crypto.subtle) {
      button.hidden = false;
      button.addEventListener("click", () => run(button, place));
    }
  }

  return { check, genesis, links };
})();

// The dice check of the page /campaigns/{campaign}/dice-check (web/dice_check.py), run in the
// player's browser: every committed roll of a session recomputed from the revealed seed with
// WebCrypto, step by step as engine/committed_dice.py does it (README: "Verifiable digital
// dice"). The page's data is only what the log records; nothing here trusts the server's word.
"use strict";

const diceCheck = (() => {
  const utf8 = new TextEncoder();

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // bytes.fromhex(text): pairs of hex digits, ASCII whitespace allowed between pairs; else null.
  function fromHex(text) {
    if (typeof text !== "string") return null;
    const bytes = [];
    let i = 0;
    while (i < text.length) {
      if (/\s/.test(text[i]) && text.charCodeAt(i) < 128) {
        i += 1;
        continue;
      }
      const pair = text.slice(i, i + 2);
      if (!/^[0-9a-fA-F]{2}$/.test(pair)) return null;
      bytes.push(parseInt(pair, 16));
      i += 2;
    }
    return new Uint8Array(bytes);
  }

  async function sha256Hex(bytes) {
    return hex(await crypto.subtle.digest("SHA-256", bytes));
  }

  function hmacKey(secret) {
    const algorithm = { name: "HMAC", hash: "SHA-256" };
    return crypto.subtle.importKey("raw", secret, algorithm, false, ["sign"]);
  }

  async function hmac(cryptoKey, message) {
    return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, message));
  }

  // commitment(secret): the hex SHA-256 of the seed's bytes.
  function commitment(secret) {
    return sha256Hex(secret);
  }

  // key(secret, entropy): HMAC-SHA256(secret, the entropy's UTF-8 bytes).
  async function key(secret, entropy) {
    return hmac(await hmacKey(secret), utf8.encode(entropy));
  }

  // mixed(given, added): what was given with the commitment when no player added anything;
  // else the hex SHA-256 of the UTF-8 JSON [given, [[who, words], ...]] with no spaces
  // (JSON.stringify writes what json.dumps(..., ensure_ascii=False, separators=(",", ":")) does).
  async function mixed(given, added) {
    if (added.length === 0) return given;
    const listed = [given, added.map(([who, words]) => [who, words])];
    return sha256Hex(utf8.encode(JSON.stringify(listed)));
  }

  // face(block, sides): the first byte below the largest multiple of sides, as byte % sides + 1;
  // null when every byte of the block falls in the biased tail.
  function face(block, sides) {
    if (!Number.isInteger(sides) || sides < 1 || sides > 256) {
      throw new RangeError(`committed dice handle up to 256 sides, not ${sides}`);
    }
    const limit = 256 - (256 % sides);
    for (const byte of block) if (byte < limit) return (byte % sides) + 1;
    return null;
  }

  // The counter as 8 bytes, big-endian.
  function counterBytes(counter) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigUint64(0, BigInt(counter));
    return bytes;
  }

  // replay(key, start, sides): each die reads HMAC-SHA256(key, counter) from counter start on,
  // moving to the next counter when a block gives no face; the faces and the counters used.
  async function replay(derived, start, sides) {
    const cryptoKey = await hmacKey(derived);
    const faces = [];
    let draws = 0;
    for (const n of sides) {
      for (;;) {
        const block = await hmac(cryptoKey, counterBytes(start + draws));
        draws += 1;
        const found = face(block, n);
        if (found !== null) {
          faces.push(found);
          break;
        }
      }
    }
    return { faces, draws };
  }

  // The session's commitments in log order (a session started again has several), each with
  // the entropy added after it, its committed rolls and its reveal.
  function commitments(steps) {
    const found = [];
    let current = null;
    for (const step of steps) {
      if (step.step === "committed") {
        current = { committed: step, added: [], rolls: [], revealed: null };
        found.push(current);
      } else if (current === null) {
        continue;
      } else if (step.step === "entropy") {
        current.added.push([step.by, step.words]);
      } else if (step.step === "revealed") {
        current.revealed = step;
      } else if (step.step === "roll") {
        current.rolls.push(step);
      }
    }
    return found;
  }

  // One commitment checked: the seed against the commitment, each roll against the seed, the
  // counters 0, 1, 2... without repeats (a gap is a roll the reader may not read, or missing).
  async function check(c) {
    const result = { seed: "waiting", mixed: null, rows: [], end: null };
    let derived = null;
    if (c.revealed !== null) {
      const secret = fromHex(c.revealed.seed);
      if (secret !== null && (await commitment(secret)) === c.committed.seed_hash) {
        result.seed = "verified";
        result.mixed = await mixed(c.committed.entropy, c.added);
        derived = await key(secret, result.mixed);
      } else {
        result.seed = "mismatch";
      }
    }
    let expected = 0;
    for (const roll of c.rolls) {
      if (roll.counter > expected) result.rows.push({ gap: [expected, roll.counter - 1] });
      const row = { roll, status: "waiting", faces: null, why: "" };
      if (roll.counter < expected) {
        row.status = "mismatch";
        row.why = `counter ${roll.counter} was used already: the next was ${expected}`;
      }
      expected = roll.counter + roll.draws;
      if (derived !== null) {
        const sides = roll.dice.map((d) => d.sides);
        const got = await replay(derived, roll.counter, sides);
        row.faces = got.faces;
        const same = got.draws === roll.draws && got.faces.every((f, i) => f === roll.dice[i].face);
        if (!same) {
          row.status = "mismatch";
          row.why = row.why || "the recorded dice do not follow from the seed";
        } else if (row.status !== "mismatch") {
          row.status = "verified";
        }
      } else if (result.seed === "mismatch") {
        row.status = "unchecked";
      }
      result.rows.push(row);
    }
    const counters = c.revealed === null ? null : c.revealed.counters;
    if (counters !== null && counters !== undefined) {
      if (expected < counters) result.rows.push({ gap: [expected, counters - 1] });
      result.end = { counters, used: expected, ok: expected <= counters };
    }
    return result;
  }

  // --- The page ------------------------------------------------------------------------------

  const WORDS = {
    verified: "verified",
    mismatch: "does not match",
    waiting: "waiting for the reveal",
    unchecked: "cannot be checked",
  };

  function element(tag, text, attributes = {}) {
    const made = document.createElement(tag);
    if (text !== undefined && text !== null) made.textContent = text;
    for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
    return made;
  }

  function dice(list) {
    return list.map((d) => `d${d.sides}: ${d.face}`).join(", ");
  }

  function seedLine(c, result) {
    const line = element("p", null, { class: "seed", "data-status": result.seed });
    line.append(`Commitment (ruling ${c.committed.ruling}): `, element("code", c.committed.seed_hash));
    if (c.revealed === null) {
      line.append(". The seed is revealed when the session ends: ", element("strong", WORDS.waiting));
      return line;
    }
    line.append("; revealed seed: ", element("code", c.revealed.seed), ". Its SHA-256 ");
    line.append(result.seed === "verified" ? "is the commitment: " : "is not the commitment: ");
    line.append(element("strong", WORDS[result.seed]));
    return line;
  }

  function entropyLine(c, result) {
    const line = element("p", null, { class: "entropy" });
    if (c.added.length === 0) {
      line.append("No player added entropy.");
    } else {
      line.append("Entropy added: ");
      c.added.forEach(([who, words], i) => {
        line.append(i ? "; " : "", element("strong", who), " ", element("q", words));
      });
      line.append(".");
    }
    if (result.mixed !== null) line.append(" Mixed in: ", element("code", result.mixed));
    return line;
  }

  function table(result) {
    const rows = element("table", null, { class: "rolls" });
    const head = element("tr");
    for (const title of ["ruling", "counters", "recorded", "recomputed", "check"]) {
      head.append(element("th", title));
    }
    rows.append(head);
    for (const row of result.rows) {
      if (row.gap) {
        const [first, last] = row.gap;
        const tr = element("tr", null, { class: "gap", "data-status": "gap" });
        tr.append(element("td", "-"), element("td", first === last ? `${first}` : `${first}-${last}`));
        const why = "not in the rulings you may read (a hidden roll, or a missing one: campaign verify tells)";
        tr.append(element("td", why, { colspan: "3" }));
        rows.append(tr);
        continue;
      }
      const { roll } = row;
      const tr = element("tr", null, { "data-ruling": `${roll.ruling}`, "data-status": row.status });
      const last = roll.counter + roll.draws - 1;
      const ruling = roll.undone ? `${roll.ruling} (undone)` : `${roll.ruling}`;
      tr.append(element("td", ruling), element("td", `${roll.counter}-${last}`));
      tr.append(element("td", dice(roll.dice)));
      const faces = row.faces === null ? "-" : row.faces.join(", ");
      tr.append(element("td", faces));
      const verdict = element("td", WORDS[row.status], { class: "status" });
      if (row.why) verdict.append(`: ${row.why}`);
      tr.append(verdict);
      rows.append(tr);
    }
    return rows;
  }

  function endLine(result) {
    const { counters, used, ok } = result.end;
    const status = ok ? "verified" : "mismatch";
    const line = element("p", null, { class: "counters", "data-status": status });
    line.append(`The reveal says the session's committed dice used ${counters} counters; `);
    line.append(`the rolls you may read end at ${used}: `, element("strong", WORDS[status]));
    return line;
  }

  function overall(results) {
    const statuses = results.flatMap((r) => [
      r.seed,
      ...r.rows.filter((row) => !row.gap).map((row) => row.status),
      ...(r.end === null ? [] : [r.end.ok ? "verified" : "mismatch"]),
    ]);
    if (statuses.includes("mismatch")) return "mismatch";
    if (statuses.includes("waiting") || statuses.length === 0) return "waiting";
    return "verified";
  }

  async function run() {
    const summary = document.getElementById("dice-summary");
    const place = document.getElementById("dice-check");
    if (!window.crypto || !crypto.subtle) {
      summary.dataset.status = "unavailable";
      summary.textContent =
        "This browser offers no WebCrypto on this page (it needs https, or localhost).";
      return;
    }
    const data = JSON.parse(document.getElementById("dice-data").textContent);
    const found = commitments(data.steps);
    if (found.length === 0) {
      summary.dataset.status = "none";
      summary.textContent = `Session ${data.session} committed to no dice seed you can read.`;
      return;
    }
    const results = [];
    for (const c of found) {
      const result = await check(c);
      results.push(result);
      const section = element("section", null, { class: "commitment" });
      section.append(seedLine(c, result), entropyLine(c, result), table(result));
      if (result.end !== null) section.append(endLine(result));
      place.append(section);
    }
    const status = overall(results);
    const rolls = results.flatMap((r) => r.rows.filter((row) => !row.gap));
    const bad = rolls.filter((row) => row.status === "mismatch").length;
    summary.dataset.status = status;
    summary.textContent = {
      verified: `Every committed roll you may read (${rolls.length}) follows from the revealed seed.`,
      mismatch: `${bad} of ${rolls.length} committed rolls, or the seed, do not match.`,
      waiting: "The seed is not revealed yet: the rolls are checked when the session ends.",
    }[status];
  }

  if (typeof document !== "undefined" && document.getElementById("dice-data")) {
    run().catch((error) => {
      const summary = document.getElementById("dice-summary");
      summary.dataset.status = "mismatch";
      summary.textContent = `The check failed: ${error}`;
    });
  }

  return { commitment, key, mixed, face, replay, commitments, check, fromHex, hex };
})();

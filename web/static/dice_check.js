// The dice check of the page /campaigns/{campaign}/dice-check (web/dice_check.py), run in the
// player's browser with WebCrypto alone: every committed roll of a session recomputed step by
// step as engine/committed_dice.py draws it and engine/audit_dice.py (`campaign verify`) checks
// it: protocol 2 (the players' Ed25519-signed entropy, each member's own counters, hidden rolls
// under a Merkle root) and protocol 1 (older sessions: one counter). The page's data is only
// what the log records; nothing here trusts the server's word. It lists, first, what a player
// must see: dice set aside, hidden and never revealed, or not drawn from the commitment.
//
// A player also makes their signing key here (Ed25519, WebCrypto, the private half not
// extractable, kept in this browser's IndexedDB, never sent), registers its public half on
// their seat (`member key`) and signs the entropy they add (`entropy`), through the JSON API.
"use strict";

const diceCheck = (() => {
  const utf8 = new TextEncoder();
  const MAX_SIDES = 1000; // the largest die free rolls allow (domain.free_rolls)

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

  function concat(...parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  async function sha256(bytes) {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  }

  async function sha256Hex(bytes) {
    return hex(await sha256(bytes));
  }

  function hmacKey(secret) {
    const algorithm = { name: "HMAC", hash: "SHA-256" };
    return crypto.subtle.importKey("raw", secret, algorithm, false, ["sign"]);
  }

  async function hmac(cryptoKey, message) {
    return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, message));
  }

  // commitment(secret, hidden_root): the hex SHA-256 of the seed followed by the hidden tree's
  // root (protocol 2), or of the seed alone (protocol 1: no root); null if the root is not hex.
  async function commitment(secret, hiddenRoot = "") {
    const root = fromHex(hiddenRoot);
    if (root === null) return null;
    return sha256Hex(concat(secret, root));
  }

  // key(secret, entropy): HMAC-SHA256(secret, the entropy's UTF-8 bytes).
  async function key(secret, entropy) {
    return hmac(await hmacKey(secret), utf8.encode(entropy));
  }

  // JSON.stringify writes what json.dumps(..., ensure_ascii=False, separators=(",", ":")) does.
  function digest(listed) {
    return sha256Hex(utf8.encode(JSON.stringify(listed)));
  }

  // Protocol 1's mixed(given, added): what was given with the commitment when no player added
  // anything; else the hex SHA-256 of the UTF-8 JSON [given, [[who, words], ...]].
  async function mixed(given, added) {
    if (added.length === 0) return given;
    return digest([given, added.map(([who, words]) => [who, words])]);
  }

  // Python orders strings by code point (JavaScript's sort, by UTF-16 unit, does not).
  function compareText(a, b) {
    const x = Array.from(a, (c) => c.codePointAt(0));
    const y = Array.from(b, (c) => c.codePointAt(0));
    for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
      if (x[i] !== y[i]) return x[i] - y[i];
    }
    return x.length - y.length;
  }

  function compareLists(a, b) {
    for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
      const order = compareText(a[i], b[i]);
      if (order !== 0) return order;
    }
    return a.length - b.length;
  }

  // Protocol 2's mixed_signed(counted): the hex SHA-256 of the UTF-8 JSON of the counted
  // [[member, words, signature], ...], sorted; "" when none counted.
  async function mixedSigned(counted) {
    if (counted.length === 0) return "";
    const listed = counted.map(([who, words, signature]) => [who, words, signature]);
    return digest(listed.sort(compareLists));
  }

  // --- the hidden rolls' tree ----------------------------------------------------------------

  function leafHash(leaf) {
    return sha256(concat(Uint8Array.of(0), leaf));
  }

  function node(left, right) {
    return sha256(concat(Uint8Array.of(1), left, right));
  }

  // root_from(leaf, index, proof): the root a leaf key and its path (siblings from the leaves
  // up) lead to; bit `depth` of the index says whether the node is the right child there.
  async function rootFrom(leaf, index, proof) {
    let at = await leafHash(leaf);
    for (let depth = 0; depth < proof.length; depth += 1) {
      const other = fromHex(proof[depth]);
      if (other === null) return null;
      const right = Math.floor(index / 2 ** depth) % 2 === 1;
      at = right ? await node(other, at) : await node(at, other);
    }
    return hex(at);
  }

  // --- dice from a key -----------------------------------------------------------------------

  // face(block, sides): a die of up to 256 sides takes the first byte below the largest multiple
  // of sides, a larger one the first 2-byte big-endian value below the largest multiple of
  // sides under 65,536, as value % sides + 1; null when every value falls in the biased tail.
  function face(block, sides) {
    if (!Number.isInteger(sides) || sides < 1 || sides > MAX_SIDES) {
      throw new RangeError(`committed dice have 1 to ${MAX_SIDES} sides, not ${sides}`);
    }
    let values = Array.from(block);
    let span = 256;
    if (sides > 256) {
      values = [];
      for (let i = 0; i < block.length; i += 2) {
        values.push(i + 1 < block.length ? block[i] * 256 + block[i + 1] : block[i]);
      }
      span = 65536;
    }
    const limit = span - (span % sides);
    for (const value of values) if (value < limit) return (value % sides) + 1;
    return null;
  }

  // The counter as 8 bytes, big-endian.
  function counterBytes(counter) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigUint64(0, BigInt(counter));
    return bytes;
  }

  // replay(key, start, sides, lane): each die reads HMAC-SHA256(key, counter ‖ lane) from
  // counter start on (lane: the roller's name in protocol 2's public rolls, else nothing),
  // moving to the next counter when a block gives no face; the faces and the counters used.
  async function replay(derived, start, sides, lane = new Uint8Array(0)) {
    const cryptoKey = await hmacKey(derived);
    const faces = [];
    let draws = 0;
    for (const n of sides) {
      for (;;) {
        const block = await hmac(cryptoKey, concat(counterBytes(start + draws), lane));
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

  // --- signed entropy and sealed rolls (domain/signatures.py) --------------------------------

  // canonical_json(value): sorted keys, no spaces, UTF-8 (as the log records a ruling's args).
  function canonical(value) {
    if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
    if (value !== null && typeof value === "object") {
      const keys = Object.keys(value).sort(compareText);
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
    }
    return JSON.stringify(value);
  }

  // The bytes a player signs to seal a roll (protocol 3): "campaign-log roll 3", the
  // commitment, the member, which of their sealed rolls it is, the command, its arguments.
  function sealMessage(committed, member, sealed, command, args) {
    const lines = [`campaign-log roll 3`, committed, member, String(sealed), command];
    return utf8.encode(`${lines.join("\n")}\n${canonical(args)}`);
  }

  // A sealed roll's key: HMAC-SHA256 of the session's roll key over the seal's 64 bytes.
  async function sealedKey(rollKey, seal) {
    const bytes = fromHex(seal);
    return bytes === null ? null : hmac(await hmacKey(rollKey), bytes);
  }

  // The bytes a player signs: "campaign-log entropy 2", the commitment, the member, the words.
  function entropyMessage(committed, member, words) {
    return utf8.encode(`campaign-log entropy 2\n${committed}\n${member}\n${words}`);
  }

  // signature_holds(public_key, message, signature): Ed25519, both hex; false, never a throw.
  async function signatureHolds(publicKey, message, signature) {
    if (typeof publicKey !== "string" || !/^[0-9a-f]{64}$/.test(publicKey)) return false;
    if (typeof signature !== "string" || signature.length !== 128) return false;
    const signed = fromHex(signature);
    if (signed === null) return false;
    try {
      const algorithm = { name: "Ed25519" };
      const imported = await crypto.subtle.importKey("raw", fromHex(publicKey), algorithm, false, [
        "verify",
      ]);
      return await crypto.subtle.verify(algorithm, imported, signed, message);
    } catch (error) {
      return false;
    }
  }

  // str.strip(): what the server stores of the words typed (Python's whitespace, not trim()'s).
  const SPACE = new Set([
    0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000,
    0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028,
    0x2029, 0x202f, 0x205f, 0x3000,
  ]);

  function pyStrip(text) {
    const chars = Array.from(text);
    let first = 0;
    let last = chars.length;
    while (first < last && SPACE.has(chars[first].codePointAt(0))) first += 1;
    while (last > first && SPACE.has(chars[last - 1].codePointAt(0))) last -= 1;
    return chars.slice(first, last).join("");
  }

  // --- a session's commitments, checked ------------------------------------------------------

  // The session's commitments in log order (a session started again has several), each with
  // the entropy added after it (signatures checked against the key on the member's seat at
  // that point of the log), its rulings, its hidden rolls' keys, its reveal, whether it ended.
  async function commitments(steps) {
    const found = [];
    const keys = new Map();
    const putBy = new Map(); // who put each seat's key there
    const signedIn = new Map(); // whether from the member's own signed-in client
    const channelKeys = new Map(); // each linked Discord channel's application key
    const accounts = new Map(); // each member's linked Discord account
    let current = null;
    for (const step of steps) {
      if (step.step === "committed") {
        current = {
          committed: step,
          protocol: step.protocol || 1,
          added: [],
          counted: [],
          unsigned: [],
          problems: [],
          items: [],
          hiddenKeys: new Map(),
          revealed: null,
          ended: false,
          superseded: false,
        };
        found.push(current);
      } else if (step.step === "seated" || step.step === "unseated") {
        keys.delete(step.name);
        putBy.delete(step.name);
        signedIn.delete(step.name);
        accounts.delete(step.name);
      } else if (step.step === "channel") {
        if (step.key) channelKeys.set(step.channel, step.key);
        else channelKeys.delete(step.channel);
      } else if (step.step === "account") {
        for (const [who, account] of [...accounts]) {
          if (account === step.account) accounts.delete(who); // an account is one member's
        }
        accounts.set(step.name, step.account);
      } else if (step.step === "key") {
        keys.set(step.name, step.key);
        putBy.set(step.name, step.by);
        signedIn.set(step.name, step.signed_in === true);
      } else if (current === null) {
        continue;
      } else if (step.step === "entropy") {
        const seat = { key: keys.get(step.by) || "", putBy: putBy.get(step.by) };
        seat.signedIn = signedIn.get(step.by) === true;
        await addEntropy(current, step, seat);
      } else if (step.step === "revealed") {
        current.revealed = step;
      } else if (step.step === "hidden key") {
        current.hiddenKeys.set(step.ruling, step);
      } else if (step.step === "ended") {
        current.ended = true;
      } else if (["roll", "unread", "uncommitted"].includes(step.step) && !current.ended) {
        if (step.sealed !== null && step.sealed !== undefined) {
          step.seatKey = keys.get(step.lane) || ""; // the key on the sealer's seat then
          step.channelKeys = new Map(channelKeys); // sealed through Discord: its keys then
          step.account = accounts.get(step.lane) || ""; // and the account linked to the roller
        }
        current.items.push(step);
      }
    }
    found.forEach((c, i) => {
      c.superseded = i < found.length - 1;
    });
    return found;
  }

  // Protocol 4 on: entropy counts only when signed by a key its member put on their seat from
  // their own signed-in client (engine/audit/dice.py, domain/campaign.py KEYS_SIGNED_IN).
  const KEYS_SIGNED_IN = 4;

  async function addEntropy(c, step, seat) {
    const { key: seatKey, putBy } = seat;
    const { by, words, signature } = step;
    c.added.push([by, words]);
    if (c.protocol < 2) return;
    if (!signature) {
      c.unsigned.push({
        kind: "unsigned",
        ruling: step.ruling,
        by,
        text:
          `${by}'s entropy “${words}” (ruling ${step.ruling}) is unsigned: not counted, ` +
          "as the GM's machine could have written it",
      });
      return;
    }
    const message = entropyMessage(c.committed.seed_hash, by, words);
    if (!(await signatureHolds(seatKey, message, signature))) {
      const why = "is signed, but not by the key on their seat";
      c.problems.push(`ruling ${step.ruling}: ${by}'s entropy ${why}`);
    } else if (c.protocol >= KEYS_SIGNED_IN && !seat.signedIn) {
      c.unsigned.push({
        kind: "keyboard key",
        ruling: step.ruling,
        by,
        text:
          `${by}'s entropy “${words}” (ruling ${step.ruling}) is signed by a key put on ${by}'s ` +
          `seat at the GM's keyboard (by ${putBy}): not counted: key put on the seat at the ` +
          "GM's keyboard",
      });
    } else {
      c.counted.push([by, words, signature, seatKey]);
      if (putBy !== by) {
        c.unsigned.push({
          kind: "key put by another",
          ruling: step.ruling,
          by,
          text:
            `${by}'s entropy “${words}” (ruling ${step.ruling}) is signed by the key ${putBy} ` +
            `put on ${by}'s seat: ${by}, check it is yours (\`campaign key show\`)`,
        });
      }
    }
  }

  function undoneText(item) {
    const { by, ruling } = item.undone;
    const undone = `undone by ${by} in ruling ${ruling}`;
    return `ruling ${item.ruling} (by ${item.by}): its committed dice were set aside, ${undone}`;
  }

  // One commitment checked as engine/audit_dice.py checks it: the seed against the commitment,
  // each roll's counters against the last of its lane (its member's, its hidden leaf, or the
  // one counter of protocol 1), its dice against the seed or its revealed hidden key, the
  // reveal's counters against the rolls'; and what the players must see, listed.
  async function check(c, session) {
    const problems = [...c.problems];
    const result = { seed: "waiting", rows: [], problems, warnings: [], end: null, idle: [] };
    result.entropy =
      c.protocol < 2 ? await mixed(c.committed.entropy, c.added) : await mixedSigned(c.counted);
    let seeded = null;
    if (c.revealed !== null) {
      const secret = fromHex(c.revealed.seed);
      const made = secret === null ? null : await commitment(secret, c.committed.hidden_root || "");
      if (made !== null && made === c.committed.seed_hash) {
        result.seed = "verified";
        seeded = await key(secret, result.entropy);
      } else {
        result.seed = "mismatch";
        const why = secret === null ? "is not a hex string" : "is not the one committed";
        result.problems.push(`the revealed seed ${why}`);
      }
    }
    const state = {
      expected: 0,
      lanes: new Map(),
      unreadLanes: new Set(),
      leaves: 0,
      seals: new Map(), // protocol 3: each member's next sealed roll
      interactions: new Set(), // protocol 3: the Discord interactions that sealed a roll
    };
    const listed = [];
    const hidden = [];
    const redraws = new Map(); // each ruling whose dice amendments re-drew: its roller, theirs
    let rolls = 0;
    for (const item of c.items) {
      if (item.amends) {
        const target = item.amends.ruling;
        if (!redraws.has(target)) redraws.set(target, { roller: item.amends.by, by: [] });
        redraws.get(target).by.push([item.ruling, item.by]);
      }
      if (item.step === "uncommitted") {
        const what = item.hidden ? "hidden from you" : item.command;
        listed.push({
          at: item.ruling,
          kind: "uncommitted",
          ruling: item.ruling,
          by: item.by,
          text:
            `ruling ${item.ruling} (${what}, by ${item.by}): its dice are ${item.provenance}, ` +
            "not drawn from the commitment",
        });
        continue;
      }
      rolls += 1;
      if (item.undone) {
        const { ruling, by } = item;
        listed.push({ at: item.undone.ruling, kind: "undone", ruling, by, text: undoneText(item) });
      }
      const row =
        item.step === "unread"
          ? unreadRow(c, item, state)
          : await rollRow(c, item, state, seeded, result);
      if (row.before) result.rows.push({ gap: row.before });
      result.rows.push(row);
      if (row.neverShown && !item.undone) hidden.push(item);
      const idle = idleOf(c, item, row);
      if (idle !== null) result.idle.push(idle);
    }
    if (c.protocol < 2) {
      const counters = c.revealed === null ? null : c.revealed.counters;
      if (counters !== null && counters !== undefined) {
        if (state.expected < counters) result.rows.push({ gap: [state.expected, counters - 1] });
        result.end = { counters, used: state.expected, ok: state.expected <= counters };
      }
    } else if (c.revealed !== null) {
      result.end = endOf(c.revealed, state);
      if (!result.end.ok) {
        result.problems.push(
          "the reveal's counters per member and hidden leaves are not the ones the rolls " +
            "recorded used",
        );
      }
    }
    const w = result.warnings;
    const warn = (kind, text) => w.push({ kind, text });
    if (c.superseded && c.added.length) {
      warn(
        "restarted",
        `session ${session} was started again after players added entropy: its first seed ` +
          "was set aside",
      );
    }
    if (c.added.length && !rolls && c.ended) {
      warn(
        "ended",
        `session ${session} ended after players added entropy and before any committed roll: ` +
          "its seed was set aside",
      );
    }
    w.push(...c.unsigned);
    if (c.protocol >= 2 && rolls && !c.counted.length) {
      warn(
        "no-signed",
        `no signed entropy of a player was counted in session ${session}: the GM's machine ` +
          "alone chose its dice",
      );
    }
    w.push(...bounded(listed.sort((a, b) => a.at - b.at), session));
    for (const [ruling, { roller, by }] of [...redraws].sort((a, b) => a[0] - b[0])) {
      w.push({ kind: "redrawn", ruling, by: roller, text: redrawnText(ruling, roller, by) });
    }
    for (const item of hidden.sort((a, b) => a.ruling - b.ruling)) {
      w.push({
        kind: "hidden",
        ruling: item.ruling,
        by: item.by,
        text: `ruling ${item.ruling} (by ${item.by}): its hidden committed dice were never revealed`,
      });
    }
    result.rolls = rolls;
    return result;
  }

  // A committed roll nobody sealed that changed nothing, as engine/audit/dice.py finds it (its
  // ruling, lane, who made it, why), or null: undone; hidden and never revealed; or a free roll
  // with no consequence (every event it wrote a free roll's record). Each spent a counter the
  // GM's machine could foresee.
  const IDLE_FREE = "free roll with no consequence";
  const IDLE_HIDDEN = "hidden, never revealed";
  function idleOf(c, item, row) {
    if (item.sealed !== null && item.sealed !== undefined) return null;
    const hidden = item.leaf !== null && item.leaf !== undefined;
    const lane = c.protocol < 2 ? "" : hidden ? "hidden" : item.lane || "";
    let why = null;
    if (item.undone) why = "undone";
    else if (row.neverShown) why = IDLE_HIDDEN;
    else if (item.wrote && item.wrote.length && item.wrote.every((t) => t === "FreeRollMade")) {
      why = IDLE_FREE;
    }
    return why === null ? null : { ruling: item.ruling, lane, by: item.by, why };
  }

  // The counts per lane, in the words of engine/audit/idle.py's idle_lines.
  function idleLines(idle) {
    const lanes = new Map();
    for (const roll of idle) {
      if (!lanes.has(roll.lane)) lanes.set(roll.lane, []);
      lanes.get(roll.lane).push(roll);
    }
    const plural = { [IDLE_FREE]: "free rolls with no consequence", [IDLE_HIDDEN]: IDLE_HIDDEN };
    const lines = [];
    for (const [lane, rolls] of lanes) {
      const name = lane === "hidden" ? "hidden rolls" : lane ? `${lane}'s lane` : "the counter";
      const kinds = new Map();
      for (const roll of rolls) {
        if (!kinds.has(roll.why)) kinds.set(roll.why, []);
        kinds.get(roll.why).push(roll.ruling);
      }
      const parts = [...kinds].map(([why, numbers]) => {
        const what = numbers.length === 1 ? why : plural[why] || why;
        return `${numbers.length} ${what}: ${ranges(numbers)}`;
      });
      const text = `${name}: ${rolls.length} (${parts.join("; ")})`;
      lines.push({ lane, count: rolls.length, text });
    }
    return lines;
  }

  const RUNS = 50; // the runs a lane's line names one by one, as engine/audit/idle.py says

  function ranges(numbers) {
    const runs = [];
    for (const n of numbers) {
      if (runs.length && n === runs[runs.length - 1][1] + 1) runs[runs.length - 1][1] = n;
      else runs.push([n, n]);
    }
    let text = runs
      .slice(0, RUNS)
      .map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`))
      .join(", ");
    if (runs.length > RUNS) {
      text += `, and ${runs.length - RUNS} more runs up to ruling ${runs[runs.length - 1][1]}`;
    }
    return numbers.length === 1 ? `ruling ${text}` : `rulings ${text}`;
  }

  function showIdle(results) {
    const place = document.getElementById("dice-idle");
    if (!place) return;
    const idle = results.flatMap((r) => r.idle);
    place.dataset.count = `${idle.length}`;
    place.replaceChildren();
    if (idle.length === 0) return;
    place.append(
      element(
        "h2",
        "Committed rolls nobody sealed that changed nothing (each spent a counter the GM's " +
          `machine could foresee): ${idle.length}`,
      ),
    );
    const list = element("ul");
    for (const line of idleLines(idle)) {
      const attributes = { "data-lane": line.lane, "data-count": `${line.count}` };
      list.append(element("li", line.text, attributes));
    }
    place.append(list);
  }

  // A session's warnings of one kind listed one by one up to LISTED; past it, one counted line
  // naming the first and last of the rest, as engine/audit/dice.py (Listed) says them.
  const LISTED = 50;
  const LISTED_WHAT = {
    uncommitted: "dice are not drawn from the commitment",
    undone: "committed dice were set aside, undone",
  };

  function bounded(listed, session) {
    const kept = [];
    const past = new Map(); // kind: { count, first, last }
    const seen = new Map();
    for (const item of listed) {
      const n = (seen.get(item.kind) || 0) + 1;
      seen.set(item.kind, n);
      if (n <= LISTED) {
        kept.push(item);
        continue;
      }
      const over = past.get(item.kind) || { count: 0, first: item.ruling, last: item.ruling };
      over.count += 1;
      over.last = item.ruling;
      past.set(item.kind, over);
    }
    for (const kind of ["uncommitted", "undone"]) {
      const over = past.get(kind);
      if (!over) continue;
      const noun = over.count === 1 ? "ruling" : "rulings";
      const span =
        over.count === 1 ? `ruling ${over.first}` : `rulings ${over.first} to ${over.last}`;
      const what = LISTED_WHAT[kind];
      const text = `and ${over.count} more ${noun} of session ${session} whose ${what}`;
      kept.push({ kind, text: `${text} (${span})` });
    }
    return kept;
  }

  // The warning that lists the re-draws of a ruling's dice by amendments, with their count.
  function redrawnText(ruling, roller, by) {
    const count = by.length;
    const times = count === 1 ? "once" : `${count} times`;
    const noun = count === 1 ? "amendment" : "amendments";
    const numbers = by.map(([number]) => number).join(", ");
    const who = [...new Set(by.map(([, actor]) => actor))].join(", ");
    return (
      `ruling ${ruling} (by ${roller}): its dice were re-drawn ${times}, by ${noun} ` +
      `${numbers} (by ${who})`
    );
  }

  // The dice a roll drew from its counters: all of a roll's; an amendment's last `fresh` (the
  // others are its ruling's, checked where that ruling was).
  function drawnDice(roll) {
    if (!roll.amends) return roll.dice;
    return roll.dice.slice(Math.max(0, roll.dice.length - (roll.fresh || 0)));
  }

  function outOfTurn(item, state) {
    return (
      `hidden committed dice from leaf ${item.leaf} counter ${item.counter}, expected leaf ` +
      `${state.leaves} from counter 0`
    );
  }

  // A ruling the reader may not read: a hidden roll not revealed (its leaf taken in turn), a
  // private one (its member's counters cannot be followed past it), or protocol 1's gap.
  function unreadRow(c, item, state) {
    const row = { item, status: item.hidden ? "hidden" : "unread", faces: null, why: "" };
    if (item.sealed !== null && item.sealed !== undefined) {
      state.seals.set(item.lane, item.sealed + 1); // sealed: it moves no counter of the lane
    } else if (c.protocol >= 2 && item.leaf !== null && item.leaf !== undefined) {
      if (item.leaf !== state.leaves || item.counter !== 0) {
        row.status = "mismatch";
        row.why = outOfTurn(item, state);
      }
      state.leaves = item.leaf + 1;
      row.neverShown = true;
    } else if (c.protocol >= 2 && item.lane) {
      state.unreadLanes.add(item.lane);
    }
    return row;
  }

  async function rollRow(c, roll, state, seeded, result) {
    const row = { item: roll, status: "waiting", faces: null, why: "" };
    const wrong = (why) => {
      row.status = "mismatch";
      row.why = row.why || why;
    };
    const drawn = drawnDice(roll);
    const sides = drawn.map((d) => d.sides);
    let derived = null;
    let lane = new Uint8Array(0);
    if (c.protocol < 2) {
      if (roll.counter > state.expected) row.before = [state.expected, roll.counter - 1];
      if (roll.counter < state.expected) {
        wrong(`counter ${roll.counter} was used already: the next was ${state.expected}`);
      }
      state.expected = roll.counter + roll.draws;
      derived = seeded;
    } else if (roll.leaf !== null && roll.leaf !== undefined) {
      if (roll.leaf !== state.leaves || roll.counter !== 0) {
        wrong(outOfTurn(roll, state));
      }
      state.leaves = roll.leaf + 1;
      const shown = c.hiddenKeys.get(roll.ruling); // its own key: the session's seed is not needed
      if (shown === undefined) {
        if (roll.shown) {
          row.status = "unchecked";
          row.why = "revealed without its hidden key";
        } else {
          row.status = row.status === "mismatch" ? row.status : "hidden";
          row.neverShown = true;
        }
        return row;
      }
      const leafKey = fromHex(shown.leaf_key);
      const root = leafKey === null ? null : await rootFrom(leafKey, roll.leaf, shown.proof);
      if (shown.leaf !== roll.leaf || root === null || root !== c.committed.hidden_root) {
        wrong("its revealed hidden key was not committed");
        return row;
      }
      derived = await key(leafKey, result.entropy);
    } else if (roll.sealed !== null && roll.sealed !== undefined) {
      await sealedRoll(c, roll, state, wrong);
      lane = utf8.encode(roll.lane);
      derived = seeded === null ? null : await sealedKey(seeded, roll.seal);
    } else if (roll.lane !== null && roll.lane !== undefined) {
      if (roll.amends && roll.lane !== roll.amends.by) {
        const { ruling, by } = roll.amends;
        wrong(`amends ruling ${ruling}, made by ${by}, but drew ${roll.lane}'s committed dice`);
      } else if (!roll.amends && roll.lane !== roll.by) {
        wrong(`made by ${roll.by} but drew ${roll.lane}'s committed dice`);
      }
      const expected = state.lanes.get(roll.lane) || 0;
      if (roll.counter !== expected) {
        if (roll.counter > expected && state.unreadLanes.has(roll.lane)) {
          row.before = [expected, roll.counter - 1, roll.lane];
        } else {
          wrong(
            `committed dice from counter ${roll.counter} of ${roll.lane}'s, expected ` +
              `${expected} (counters run 0, 1, 2... without gaps or repeats)`,
          );
        }
      }
      state.lanes.set(roll.lane, roll.counter + roll.draws);
      lane = utf8.encode(roll.lane);
      derived = seeded;
    } else {
      wrong("committed dice of no member's counters");
      return row;
    }
    if (derived === null) {
      if (result.seed === "mismatch" && row.status !== "mismatch") row.status = "unchecked";
      return row;
    }
    const got = await replay(derived, roll.counter, sides, lane);
    row.faces = got.faces;
    const same =
      got.draws === roll.draws &&
      got.faces.length === drawn.length &&
      got.faces.every((f, i) => f === drawn[i].face);
    const hidden = roll.leaf !== null && roll.leaf !== undefined;
    if (!same) {
      const from = hidden ? "the dice do not follow from its revealed key" : "";
      wrong(from || "the recorded dice do not follow from the seed");
    }
    else if (row.status !== "mismatch") row.status = "verified";
    return row;
  }

  // A roll its roller sealed (protocol 3): made by the member it is sealed as, their sealed
  // rolls in sequence, the seal their signature of the roll recorded by the key on their seat.
  async function sealedRoll(c, roll, state, wrong) {
    if (roll.lane !== roll.by) wrong(`made by ${roll.by} but sealed as ${roll.lane}'s`);
    const expected = state.seals.get(roll.lane) || 0;
    if (roll.sealed !== expected) {
      wrong(
        `${roll.lane}'s sealed roll ${roll.sealed}, expected ${expected} (sealed rolls run ` +
          "0, 1, 2... without gaps or repeats)",
      );
    }
    state.seals.set(roll.lane, roll.sealed + 1);
    if (roll.counter !== 0) wrong("a sealed roll's counters start at 0");
    const message = sealMessage(
      c.committed.seed_hash,
      roll.lane,
      roll.sealed,
      roll.command,
      roll.args,
    );
    if (roll.interaction) await discordSealed(c, roll, state, wrong);
    else if (!roll.seatKey) wrong(`sealed as ${roll.lane}'s, who had no key on their seat`);
    else if (!(await signatureHolds(roll.seatKey, message, roll.seal))) {
      wrong(`its seal is not ${roll.lane}'s signature of the roll recorded`);
    }
  }

  // A roll sealed through Discord (engine/dice/interactions.py): Discord's signature of the
  // interaction (its timestamp, then its raw body) by the key recorded at its channel's link,
  // sent from the account linked to the roller, asking for the roll recorded, sealing one roll
  // of the session, sent no earlier than the second the commitment was recorded.
  async function discordSealed(c, roll, state, wrong) {
    const text = roll.interaction;
    const stamp = /^[0-9]*/.exec(text)[0];
    let body = null;
    try {
      body = JSON.parse(text.slice(stamp.length));
    } catch (error) {
      body = null;
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) body = {};
    const channel = typeof body.channel_id === "string" ? body.channel_id : "(none)";
    const key = roll.channelKeys.get(channel) || "";
    const unsigned =
      "the interaction is not signed by the Discord application linked with channel " + channel;
    if (!key) return wrong(`${unsigned}: no key was recorded when it was linked`);
    if (!stamp || !(await signatureHolds(key, utf8.encode(text), roll.seal))) {
      return wrong(`${unsigned}: the signature does not hold over its timestamp and body`);
    }
    const id = typeof body.id === "string" ? body.id : "";
    const data = body.data;
    if (body.type !== 2 || !id || data === null || typeof data !== "object") {
      return wrong("the interaction Discord signed is not a slash command with an id");
    }
    const from = body.member && typeof body.member === "object" ? body.member.user : body.user;
    const user = from && typeof from === "object" ? from.id : undefined;
    if (!roll.account || user !== roll.account) {
      wrong(`the interaction was sent by Discord account ${user}, not ${roll.lane}'s linked one`);
    }
    const asked = sentOptions(data);
    if (!sameRoll(asked, roll)) {
      const words = asked.words.join(" ");
      wrong(`the interaction Discord signed is not this roll: it asks for /${words}`);
    }
    if (state.interactions.has(id)) {
      wrong(`interaction ${id} sealed a roll of this session already`);
    }
    state.interactions.add(id);
    const committed = Date.parse(c.committed.at || "");
    if (!Number.isNaN(committed) && Number(stamp) < Math.floor(committed / 1000)) {
      wrong(`interaction ${id} was sent before the session's commitment was recorded`);
    }
    return undefined;
  }

  // A slash command's words (its name, then its subcommands') and its options' values by name.
  function sentOptions(data) {
    const words = [String(data.name)];
    let options = Array.isArray(data.options) ? data.options : [];
    while (options.length === 1 && options[0] && [1, 2].includes(options[0].type)) {
      words.push(String(options[0].name));
      options = Array.isArray(options[0].options) ? options[0].options : [];
    }
    const values = new Map();
    for (const option of options) {
      if (option && typeof option === "object") values.set(String(option.name), option.value);
    }
    return { words, values };
  }

  // Whether the options sent are the arguments recorded: the words spell the command, each
  // option is its argument (a list written comma-separated), no faces typed, not hidden.
  // (verify-dice builds the whole command from the verb's parameters, defaults included.)
  function sameRoll(asked, roll) {
    if (asked.words.join(" ") !== roll.command) return false;
    for (const [name, value] of asked.values) {
      if (name === "faces" || (name === "hidden" && value === true)) return false;
      if (name === "hidden") continue;
      const recorded = roll.args[name];
      const listed =
        Array.isArray(recorded) && typeof value === "string"
          ? value
              .split(",")
              .map((part) => part.trim())
              .filter((part) => part)
          : value;
      if (canonical(listed) !== canonical(recorded)) return false;
    }
    return true;
  }

  // Protocol 2's reveal: the counters each member's rolls used and the hidden leaves taken, as
  // the reveal says them and as the rolls recorded used them (past a private roll the reader
  // may not read, its member's counters can only be seen not to exceed what was said).
  function endOf(revealed, state) {
    const said = new Map((revealed.lanes || []).map(([who, n]) => [String(who), n]));
    let ok = revealed.hidden === state.leaves;
    for (const who of new Set([...said.keys(), ...state.lanes.keys(), ...state.unreadLanes])) {
      const used = state.lanes.get(who);
      const told = said.get(who);
      if (state.unreadLanes.has(who)) ok = ok && told !== undefined && (used || 0) <= told;
      else ok = ok && used !== undefined && told === used;
    }
    const sealed = new Map((revealed.sealed || []).map(([who, n]) => [String(who), n]));
    for (const who of new Set([...sealed.keys(), ...state.seals.keys()])) {
      ok = ok && sealed.get(who) === state.seals.get(who);
    }
    return { said, lanes: state.lanes, hidden: revealed.hidden, leaves: state.leaves, ok };
  }

  // --- The page ------------------------------------------------------------------------------

  const WORDS = {
    verified: "verified",
    mismatch: "does not match",
    waiting: "waiting for the reveal",
    unchecked: "cannot be checked",
    hidden: "hidden, not revealed",
    unread: "not yours to read",
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

  // A roll's recorded dice; of an amendment, those it drew anew, and the ruling it amends.
  function recorded(item) {
    if (!item.amends) return dice(item.dice);
    return `amends #${item.amends.ruling}, drew ${dice(drawnDice(item))}`;
  }

  function seedLine(c, result) {
    const line = element("p", null, { class: "seed", "data-status": result.seed });
    const { ruling, seed_hash: hash, hidden_root: root } = c.committed;
    line.append(`Commitment (ruling ${ruling}, protocol ${c.protocol}): `, element("code", hash));
    if (c.protocol >= 2) line.append("; hidden rolls' root: ", element("code", root));
    if (c.revealed === null) {
      const waiting = element("strong", WORDS.waiting);
      line.append(". The seed is revealed when the session ends: ", waiting);
      return line;
    }
    line.append("; revealed seed: ", element("code", c.revealed.seed), ". ");
    line.append(c.protocol >= 2 ? "SHA-256(seed ‖ root) " : "Its SHA-256 ");
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
      const counted = new Set(c.counted.map(([who, words]) => JSON.stringify([who, words])));
      c.added.forEach(([who, words], i) => {
        line.append(i ? "; " : "", element("strong", who), " ", element("q", words));
        if (c.protocol >= 2) {
          const mark = counted.has(JSON.stringify([who, words]));
          line.append(mark ? " (signed, counted)" : " (not counted)");
        }
      });
      line.append(".");
    }
    if (result.entropy) line.append(" Mixed in: ", element("code", result.entropy));
    else if (c.protocol >= 2) line.append(" Mixed in: nothing (no signed entropy).");
    return line;
  }

  function counters(c, item) {
    if (item.counter === undefined || item.counter === null) return "-";
    const last = item.draws ? `-${item.counter + item.draws - 1}` : "";
    const leaf = item.leaf !== null && item.leaf !== undefined;
    if (c.protocol >= 2 && leaf) return `leaf ${item.leaf}: ${item.counter}${last}`;
    if (c.protocol >= 2 && item.lane) return `${item.lane}'s ${item.counter}${last}`;
    return `${item.counter}${last}`;
  }

  // One row a roll; on a phone each row stacks, every cell under its column's name
  // (the stylesheet's table.stack), so no name is broken to fit a column.
  const COLUMNS = ["ruling", "by", "counters", "recorded", "recomputed", "check"];
  const cell = (column, text, attributes = {}) =>
    element("td", text, { "data-label": COLUMNS[column], ...attributes });

  function table(c, result) {
    const rows = element("table", null, { class: "rolls stack" });
    const head = element("tr");
    for (const title of COLUMNS) head.append(element("th", title, { scope: "col" }));
    rows.append(head);
    for (const row of result.rows) {
      if (row.gap) {
        const [first, last, lane] = row.gap;
        const tr = element("tr", null, { class: "gap", "data-status": "gap" });
        const span = first === last ? `${first}` : `${first}-${last}`;
        const where = lane ? `${lane}'s ${span}` : span;
        tr.append(cell(0, "-"), cell(1, lane || "-"), cell(2, where, { class: "counters" }));
        const why =
          "not in the rulings you may read (a ruling hidden from you, or a missing one: " +
          "campaign verify tells)";
        tr.append(cell(3, why, { colspan: "3" }));
        rows.append(tr);
        continue;
      }
      const { item } = row;
      const attributes = { "data-ruling": `${item.ruling}`, "data-status": row.status };
      const tr = element("tr", null, attributes);
      const undone = item.undone ? ` (undone by ${item.undone.by} in #${item.undone.ruling})` : "";
      tr.append(cell(0, `${item.ruling}${undone}`), cell(1, item.by));
      tr.append(cell(2, counters(c, item), { class: "counters" }));
      tr.append(cell(3, item.dice ? recorded(item) : "not yours to read"));
      tr.append(cell(4, row.faces === null ? "-" : row.faces.join(", ")));
      const verdict = cell(5, WORDS[row.status], { class: "status" });
      if (row.why) verdict.append(`: ${row.why}`);
      tr.append(verdict);
      rows.append(tr);
    }
    return rows;
  }

  function endLine(c, result) {
    const status = result.end.ok ? "verified" : "mismatch";
    const line = element("p", null, { class: "counters", "data-status": status });
    if (c.protocol < 2) {
      const { counters: told, used } = result.end;
      line.append(`The reveal says the session's committed dice used ${told} counters; `);
      line.append(`the rolls you may read end at ${used}: `, element("strong", WORDS[status]));
      return line;
    }
    const { said, lanes, hidden, leaves } = result.end;
    const listed = (m) => [...m].map(([who, n]) => `${who} ${n}`).join(", ") || "none";
    line.append(`The reveal says each member's rolls used these counters: ${listed(said)}, `);
    line.append(`and ${hidden} hidden leaves; the rolls recorded: ${listed(lanes)}, `);
    line.append(`and ${leaves}: `, element("strong", WORDS[status]));
    return line;
  }

  function overall(results) {
    const statuses = results.flatMap((r) => [
      r.seed,
      ...(r.problems.length ? ["mismatch"] : []),
      ...r.rows.filter((row) => !row.gap).map((row) => row.status),
      ...(r.end === null ? [] : [r.end.ok ? "verified" : "mismatch"]),
    ]);
    if (statuses.includes("mismatch")) return "mismatch";
    if (statuses.includes("waiting") || statuses.length === 0) return "waiting";
    if (statuses.includes("unchecked")) return "unchecked";
    return "verified";
  }

  function showWarnings(results, more = []) {
    const place = document.getElementById("dice-warnings");
    const warnings = [...results.flatMap((r) => r.warnings), ...more];
    place.dataset.count = `${warnings.length}`;
    place.replaceChildren();
    if (warnings.length === 0) {
      const none =
        "Nothing to warn of: no committed roll set aside, none hidden and never revealed, " +
        "every die from the commitment.";
      place.append(element("p", none));
      return;
    }
    const count = warnings.length;
    const title = count === 1 ? "1 warning: read it" : `${count} warnings: read them`;
    place.append(element("h2", title));
    const list = element("ul");
    for (const w of warnings) {
      const attributes = { "data-kind": w.kind };
      if (w.ruling !== undefined) attributes["data-ruling"] = `${w.ruling}`;
      list.append(element("li", w.text, attributes));
    }
    place.append(list);
  }

  // --- the rolls this browser sealed (table.js keeps each, IndexedDB "campaign-log-sealed") ---

  // What this browser sealed for the member in these sessions (the commitment on the sealed
  // text's second line) whose seal no ruling of the log holds: a roll asked for and dropped, or
  // one the server refused (a refusal was shown then; the same roll asked again is the same text,
  // so the same signature and the same dice).
  async function sealedMissing(data, found) {
    if (!window.indexedDB || !data.me || data.me.role !== "player") return [];
    const kept = await new Promise((done, failed) => {
      const opening = indexedDB.open("campaign-log-sealed", 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore("sealed");
      opening.onerror = () => failed(opening.error);
      opening.onsuccess = () => {
        const db = opening.result;
        const request = db.transaction("sealed", "readonly").objectStore("sealed").getAll();
        request.onsuccess = () => { db.close(); done(request.result); };
        request.onerror = () => { db.close(); failed(request.error); };
      };
    });
    const commitments = new Set(found.map((c) => c.committed.seed_hash));
    const logged = new Set(data.steps.filter((step) => step.seal).map((step) => step.seal));
    return kept
      .filter((k) => k.campaign === data.campaign && k.member === data.me.name)
      .filter((k) => commitments.has(k.text.split("\n")[1]) && !logged.has(k.seal))
      .sort((a, b) => compareText(a.at, b.at))
      .map((k) => {
        const [, , , sealed, command, args] = k.text.split("\n");
        const what = `your sealed roll ${sealed}, ${command} ${args}, sealed in this browser at ${k.at}`;
        const refused = k.answer.startsWith("refused ");
        const text = refused
          ? `${what}: the server refused it (${k.answer.slice(8)}), and the log does not hold it.`
          : `${what}: the log does not hold it (asked for, never recorded).`;
        return { kind: refused ? "sealed-refused" : "sealed-missing", text };
      });
  }

  function problemsList(result) {
    const list = element("ul", null, { class: "problems" });
    for (const problem of result.problems) {
      list.append(element("li", problem, { "data-status": "mismatch" }));
    }
    return list;
  }

  // --- the player's own key ------------------------------------------------------------------

  function openKeys() {
    return new Promise((done, failed) => {
      const opening = indexedDB.open("campaign-log-keys", 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore("keys");
      opening.onsuccess = () => done(opening.result);
      opening.onerror = () => failed(opening.error);
    });
  }

  async function stored(mode, act) {
    const db = await openKeys();
    try {
      return await new Promise((done, failed) => {
        const request = act(db.transaction("keys", mode).objectStore("keys"));
        request.onsuccess = () => done(request.result);
        request.onerror = () => failed(request.error);
      });
    } finally {
      db.close();
    }
  }

  function keyName(data) {
    return JSON.stringify([data.campaign, data.me.name]);
  }

  function heldKey(data) {
    return stored("readonly", (keys) => keys.get(keyName(data)));
  }

  // A new Ed25519 pair: the private half cannot be exported; both halves are kept here.
  async function newKey(data) {
    const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
    const made = { privateKey: pair.privateKey, publicKey: pair.publicKey };
    made.public = hex(await crypto.subtle.exportKey("raw", pair.publicKey));
    await stored("readwrite", (keys) => keys.put(made, keyName(data)));
    return made;
  }

  function csrf() {
    const found = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
    return found ? decodeURIComponent(found.slice("csrftoken=".length)) : "";
  }

  async function post(data, path, body) {
    const response = await fetch(`${data.api}/commands/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrftoken": csrf() },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = answer.error || {};
      throw new Error(`${error.code || response.status}: ${error.message || response.statusText}`);
    }
    return answer;
  }

  function register(data, publicKey) {
    return post(data, "member/key", { params: { member: data.me.name, key: publicKey } });
  }

  async function signEntropy(data, held, committed, typed) {
    const words = pyStrip(typed);
    const message = entropyMessage(committed, data.me.name, words);
    const signature = hex(await crypto.subtle.sign({ name: "Ed25519" }, held.privateKey, message));
    return post(data, "entropy", { params: { words, signature } });
  }

  function button(text, id, run, said) {
    const made = element("button", text, { type: "button", id });
    made.addEventListener("click", async () => {
      made.disabled = true;
      said.textContent = "…";
      said.className = "said";
      try {
        await run();
        location.reload();
      } catch (problem) {
        said.textContent = `${problem.message || problem}`;
        said.className = "said refusal";
        made.disabled = false;
      }
    });
    return made;
  }

  // The player's key and entropy box: what this browser holds against the key on their seat.
  async function showKey(data, found) {
    const place = document.getElementById("my-key");
    if (!place || data.me.role !== "player") return null;
    place.hidden = false;
    place.replaceChildren(element("h2", "Your signing key"));
    const said = element("output", null, { class: "said", id: "key-said" });
    let held;
    try {
      held = await heldKey(data);
    } catch (problem) {
      place.append(element("p", `This browser keeps no keys here (IndexedDB: ${problem}).`));
      return null;
    }
    const seat = data.me.key;
    const line = element("p", null, { id: "key-status" });
    const make = () => newKey(data).then((made) => register(data, made.public));
    if (held && held.public === seat) {
      line.dataset.status = "registered";
      line.append(
        "This browser holds your key (its private half never leaves it); its public half is on " +
          "your seat: ",
        element("code", held.public),
      );
      place.append(line);
    } else if (held) {
      line.dataset.status = "unregistered";
      line.append("This browser holds your key ", element("code", held.public), ", but ");
      line.append(seat ? "your seat has another: " : "it is not on your seat.");
      if (seat) line.append(element("code", seat));
      const again = () => register(data, held.public);
      place.append(line, button("Register this key on my seat", "register-key", again, said));
    } else {
      line.dataset.status = seat ? "elsewhere" : "none";
      if (seat) {
        line.append(
          "Your seat has the key ",
          element("code", seat),
          ", which this browser does not hold (made elsewhere, as by `campaign key new`).",
        );
      } else {
        line.append(
          "You have no signing key yet: the entropy you add counts only when signed by the key " +
            "on your seat.",
        );
      }
      const replaces = "Make a new signing key here (it replaces the one on your seat)";
      const label = seat ? replaces : "Make my signing key";
      place.append(line, button(label, "make-key", make, said));
    }
    if (seat) place.append(keySource(data));
    place.append(said);
    const last = found[found.length - 1];
    if (data.entropy_open && last && last.protocol >= 2) {
      if (held && held.public === seat) {
        place.append(entropyForm(data, held, last.committed.seed_hash));
      } else {
        const first = "register this browser's key on your seat to sign entropy here";
        place.append(element("p", `The entropy window is open: ${first}.`));
      }
    }
    return held || null;
  }

  // Where the key on the seat came from: the member's own signed-in client, or the GM's keyboard
  // (the CLI, --as included), whose key's entropy does not count (protocol 4 on).
  function keySource(data) {
    const keyboard = data.me.key_at_keyboard === true;
    const line = element("p", null, { id: "key-source" });
    line.dataset.source = keyboard ? "keyboard" : "client";
    line.append(
      keyboard
        ? "The key on your seat was put there at the GM's keyboard, not from your own signed-in " +
            "client: the entropy it signs is recorded but not counted. Register a key here."
        : "The key on your seat was put there from your own signed-in client.",
    );
    return line;
  }

  function entropyForm(data, held, committed) {
    const form = element("form", null, { id: "entropy-form" });
    const what = "Your entropy (any words; signed in this browser for this session's commitment): ";
    const label = element("label", what, { for: "entropy-words" });
    const input = element("input", null, {
      id: "entropy-words",
      name: "words",
      type: "text",
      autocomplete: "off",
      required: "",
    });
    const send = element("button", "Sign and add my entropy", { type: "submit" });
    const said = element("output", null, { class: "said" });
    form.append(label, input, " ", send, " ", said);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      send.disabled = true;
      said.textContent = "…";
      said.className = "said";
      try {
        if (!pyStrip(input.value)) throw new Error("type some words first");
        await signEntropy(data, held, committed, input.value);
        location.reload();
      } catch (problem) {
        said.textContent = `${problem.message || problem}`;
        said.className = "said refusal";
        send.disabled = false;
      }
    });
    return form;
  }

  // The player's own check: their entropy is counted when it is signed by the key this browser
  // holds (so its signature holds against it) and is among what the dice's entropy mixes.
  function yours(data, c, held) {
    const mine = c.counted.filter(([who, , , k]) => who === data.me.name && k === held.public);
    const status = mine.length ? "counted" : "missing";
    const line = element("p", null, { class: "yours", "data-status": status });
    if (mine.length) {
      line.append("Your entropy ");
      mine.forEach(([, words], i) => line.append(i ? ", " : "", element("q", words)));
      const why = ": its signature holds against your key and it is in the mix.";
      line.append(" is ", element("strong", "counted"), why);
    } else {
      line.append("Your entropy is ", element("strong", "NOT included"), " in these dice");
      const added = c.added.some(([who]) => who === data.me.name);
      const what = added ? "what was added in your name is not" : "none";
      line.append(` (${what} signed by the key this browser holds).`);
    }
    return line;
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
    const found = await commitments(data.steps);
    const held = await showKey(data, found).catch(() => null);
    if (found.length === 0) {
      summary.dataset.status = "none";
      summary.textContent = `Session ${data.session} committed to no dice seed you can read.`;
      showWarnings([]);
      showIdle([]);
      return;
    }
    const results = [];
    for (const c of found) {
      const result = await check(c, data.session);
      results.push(result);
      const section = element("section", null, { class: "commitment" });
      section.append(seedLine(c, result), entropyLine(c, result));
      if (held && c.protocol >= 2) section.append(yours(data, c, held));
      if (result.problems.length) section.append(problemsList(result));
      section.append(table(c, result));
      if (result.end !== null) section.append(endLine(c, result));
      place.append(section);
    }
    if (held && found[found.length - 1].protocol >= 2) {
      const mine = yours(data, found[found.length - 1], held);
      mine.id = "your-entropy";
      document.getElementById("my-key").append(mine);
    }
    showWarnings(results, await sealedMissing(data, found).catch(() => []));
    showIdle(results);
    const status = overall(results);
    const rolls = results.flatMap((r) => r.rows.filter((row) => !row.gap && row.item.dice));
    const bad = rolls.filter((row) => row.status === "mismatch").length;
    summary.dataset.status = status;
    summary.textContent = {
      verified: `Every committed roll you may read (${rolls.length}) follows from the commitment.`,
      mismatch:
        `${bad} of ${rolls.length} committed rolls you may read, or the commitment's seed, ` +
        "entropy or counters, do not match.",
      waiting: "The seed is not revealed yet: the rolls are checked when the session ends.",
      unchecked: "Some committed rolls cannot be checked (see the rows).",
    }[status];
  }

  if (typeof document !== "undefined" && document.getElementById("dice-data")) {
    run().catch((error) => {
      const summary = document.getElementById("dice-summary");
      summary.dataset.status = "mismatch";
      summary.textContent = `The check failed: ${error}`;
    });
  }

  return {
    commitment,
    key,
    mixed,
    mixedSigned,
    rootFrom,
    face,
    replay,
    entropyMessage,
    signatureHolds,
    pyStrip,
    commitments,
    check,
    idleLines,
    fromHex,
    hex,
    utf8,
    heldKey,
    sha256,
    canonical,
    compareText,
    concat,
  };
})();

"""Committed dice, as ``verify`` checks them: each session's commitments, the entropy the
players added, the rolls drawn and the reveal, recomputed from the revealed seed; and the rulings'
headers, which name a counter exactly when they drew committed dice.

The commitments, entropy and reveals (a few rows a session) are read first, so each committed
roll is checked as its ruling's header is read and nothing is kept of it but the counter the next
one should use.

An amendment that drew dice its ruling never rolled is a roll of its own: its header names the
counters it drew (of the lane of the amended ruling's roller, or a hidden leaf), its parameters
how many of its dice were drawn (``new_dice``, the last ones: the others are the amended
ruling's, checked where that ruling was). Each such re-draw is listed, per ruling, with how many
times that ruling's dice were re-drawn in the session."""

from __future__ import annotations

import json
import sys
from array import array
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any

import attrs
from attrs import frozen
from eventsourcing.persistence import StoredEvent

from domain.campaign import KEYS_SIGNED_IN
from domain.dice import Provenance
from domain.errors import DomainError
from domain.events import AMEND, CORRECTIONS
from domain.interactions import interaction_id
from domain.links import DISCORD
from domain.plain import Plain
from domain.signatures import entropy_message, seal_message, signature_holds
from engine.audit.chain import (
    CHANNEL_LINKED,
    CHANNEL_UNLINKED,
    COMMITTED,
    CREATED,
    ENDED,
    ENTROPY,
    FREE_ROLL,
    HIDDEN_SHOWN,
    KEY,
    MADE,
    MEMBER_LINKED,
    RETRACTED,
    REVEALED,
    SEATED,
    SHOWN,
    UNSEATED,
    as_int,
    stored_body,
    why,
)
from engine.audit.idle import IDLE_FREE, IDLE_HIDDEN, IDLE_UNDONE
from engine.audit.report import DiceCheck, Finding, IdleRoll
from engine.dice.committed import (
    SEALED,
    commitment,
    key,
    lane,
    mixed,
    mixed_signed,
    replay,
    root_from,
    sealed_key,
)
from engine.store.mapper import canonical_json

if TYPE_CHECKING:
    from engine.audit.ledger import RulingLedger

_COMMITTED = Provenance.COMMITTED.value

# The rows read before the rest (``SessionDice.first``): a few a session.
SECRETS = (
    COMMITTED,
    ENTROPY,
    REVEALED,
    KEY,
    SEATED,
    UNSEATED,
    HIDDEN_SHOWN,
    CREATED,
    CHANNEL_LINKED,
    CHANNEL_UNLINKED,
    MEMBER_LINKED,
)


# A session's warnings of one kind (dice not drawn from the commitment, committed dice set
# aside) are listed one by one up to this many; past it, the rest are one counted line naming
# the first and last of them, so a whole-log walk keeps a bounded number of them (the dice
# page, web/static/dice_check.js, says the same).
LISTED = 50
UNCOMMITTED = "not drawn from the commitment"
UNDONE = "committed dice were set aside, undone"


class Listed:
    """Of one kind of warning in a session: how many past the first ``LISTED``, and the
    first and last of them (rulings)."""

    __slots__ = ("first", "last", "listed", "past")

    def __init__(self) -> None:
        self.listed = 0
        self.past = 0
        self.first: Any = None
        self.last: Any = None

    def count(self, ruling: Any) -> bool:
        if self.listed < LISTED:
            self.listed += 1
            return True
        self.past += 1
        if self.first is None:
            self.first = ruling
        self.last = ruling
        return False

    def summary(self, session: int, kind: str) -> str:
        """``and 99950 more rulings of session 1 whose dice are not drawn from the commitment
        (rulings 51 to 100001)``."""
        what = f"dice are {kind}" if kind == UNCOMMITTED else kind
        noun = "ruling" if self.past == 1 else "rulings"
        span = f"ruling {self.first}" if self.past == 1 else f"rulings {self.first} to {self.last}"
        return f"and {self.past} more {noun} of session {session} whose {what} ({span})"


@frozen
class Links(Plain):
    """What checks a roll sealed through Discord, as the log stood at its ruling: the campaign's
    system, each linked channel's application key, and the Discord account linked to the member
    who rolled."""

    system: str
    keys: dict[str, str]
    account: str | None


LINKS = (CREATED, CHANNEL_LINKED, CHANNEL_UNLINKED, MEMBER_LINKED)


def _name(who: Any) -> str:
    """A member's name as a roll's facts keep it: one copy of each name, however many rolls."""
    return sys.intern(str(who))


def _moment(at: Any) -> float | None:
    """A row's time (ISO text) as Unix seconds (None when it does not read)."""
    try:
        return datetime.fromisoformat(str(at)).timestamp() if at else None
    except ValueError:
        return None


KEYBOARD_NOT_COUNTED = "not counted: key put on the seat at the GM's keyboard"


@frozen
class Seat(Plain):
    """The key on a member's seat: who put it there, and whether the member did from their
    own signed-in client (``MemberKeyRegistered.signed_in``; False: at the GM's keyboard)."""

    key: str
    put_by: Any
    signed_in: bool = False


class _Commitment:
    """One commitment of a session's dice (a session started again has several): its hash, the
    entropy given with it and added after it, its reveal, and what its rolls showed so far."""

    def __init__(self, session: int, event: dict[str, Any], at: Any = None) -> None:
        self.session = session
        self.committed_at = _moment(at)  # when the commitment was recorded (Unix seconds)
        self.interactions: set[str] = set()  # protocol 3: the Discord interactions that sealed
        self.seed_hash: str = event["seed_hash"]
        self.given: str = event["entropy"]
        self.protocol: int = event.get("protocol", 1)
        self.hidden_root: str = event.get("hidden_root", "")
        self.added: list[tuple[str, str]] = []
        self.counted: list[tuple[str, str, str, str]] = []  # protocol 2: who, words, sig, key
        self.seed: str | None = None
        self.counters: int | None = None  # the counters used in all, as the reveal says
        self.shown_lanes: list[Any] | None = None  # protocol 2: each lane's counters, as said
        self.shown_hidden: int | None = None  # protocol 2: the hidden leaves used, as said
        self.hidden_keys: dict[int, dict[str, Any]] = {}  # ruling: its revealed hidden key
        self.rolls = 0
        self.expected = 0  # protocol 1: the counter the next roll should start at
        self.lanes: dict[str, int] = {}  # protocol 2: each member's next counter
        self.leaves = 0  # protocol 2: the next hidden leaf
        self.seals: dict[str, int] = {}  # protocol 3: each member's next sealed roll
        self.sealed: list[tuple[int, str, str]] = []  # protocol 3: (ruling, member, seal)
        self.foreseeable: list[tuple[int, str, str]] = []  # (ruling, lane or "hidden", actor)
        self.bare: set[int] = set()  # rulings whose rows were their free roll alone
        self.undone: set[int] = set()  # committed rulings undone since
        self.shown_seals: list[Any] | None = None  # protocol 3: the sealed rolls, as said
        self.problems: list[str] = []  # counters out of sequence, forged signatures...
        self.unfollowed: list[str] = []  # rolls that do not follow from the seed
        self.listed: list[str] = []  # what a player must see: dice set aside or not committed
        self.counted_kinds: dict[str, Listed] = {}  # of each kind listed, its count and last
        self.entropy_warnings: list[str] = []  # unsigned, or signed by a key another put there
        self.hidden: dict[int, str] = {}  # hidden committed rulings not shown yet: by whom
        # each ruling whose dice amendments re-drew: its roller, and each amendment and by whom
        self.redraws: dict[int, tuple[str, list[tuple[int, str]]]] = {}
        self.ended = False
        # a member's copy: rulings of the session withheld from it (not the member's to read),
        # whose counters the copy cannot follow: from the first, counters are checked to move
        # forward only (never reused), and the reveal's totals to be at least the copy's
        self.withheld: list[int] = []  # their numbers
        self.failure: Exception | None = None  # a roll that could not be checked at all
        self.failed_at: Any = None  # its ruling
        self._key: bytes | None = None

    def lists(self, kind: str, ruling: Any) -> bool:
        """Counts a warning of ``kind`` about ``ruling``: whether it is among the first
        ``LISTED`` of its kind, listed one by one (past them, only counted)."""
        seen = self.counted_kinds.setdefault(kind, Listed())
        return seen.count(ruling)

    def secret(self) -> bytes | None:
        """The revealed seed, when it is hex and the one committed."""
        try:
            secret = bytes.fromhex(self.seed) if self.seed is not None else None
            if secret is None or commitment(secret, self.hidden_root) != self.seed_hash:
                return None
        except (TypeError, ValueError):
            return None
        return secret

    def entropy(self) -> str:
        if self.protocol < 2:
            return mixed(self.given, self.added)
        return mixed_signed([(who, words, sig) for who, words, sig, _ in self.counted])

    def add(self, number: Any, event: dict[str, Any], seat: Seat) -> None:
        """A contribution, as the first pass reads it, with the key on its member's seat then,
        who put it there and whether from their own signed-in client."""
        who, words = event["by"], event["words"]
        key, put_by = seat.key, seat.put_by
        self.added.append((who, words))
        if self.protocol < 2:
            return
        signature = event.get("signature", "")
        if not signature:
            self.entropy_warnings.append(
                f"{who}'s entropy {words!r} (ruling {number}) is unsigned: not counted, as the "
                "GM's machine could have written it"
            )
        elif not signature_holds(key, entropy_message(self.seed_hash, who, words), signature):
            self.problems.append(
                f"ruling {number}: {who}'s entropy is signed, but not by the key on their seat"
            )
        elif self.protocol >= KEYS_SIGNED_IN and not seat.signed_in:
            self.entropy_warnings.append(
                f"{who}'s entropy {words!r} (ruling {number}) is signed by a key put on {who}'s "
                f"seat at the GM's keyboard (by {put_by}): {KEYBOARD_NOT_COUNTED}"
            )
        else:
            self.counted.append((who, words, signature, key))
            if put_by != who:
                self.entropy_warnings.append(
                    f"{who}'s entropy {words!r} (ruling {number}) is signed by the key {put_by} "
                    f"put on {who}'s seat: {who}, check it is yours (`campaign key show`)"
                )

    def roll(self, made: dict[str, Any], actor: Any, amends: Redraw | None = None) -> None:
        """One committed roll, checked as it is read: its counters follow the last roll's of its
        lane, and with the seed (or its hidden key) revealed, its dice follow from it. Of an
        amendment (``amends``), the dice it drew: the last ``new_dice``, from the lane of the
        amended ruling's roller."""
        self.rolls += 1
        if self.failure is not None:
            return
        try:
            number = made["number"]
            drawn = made["dice"]
            if amends is not None:
                drawn = drawn[max(0, len(drawn) - amends.new) :]
            sides = tuple(d["sides"] for d in drawn)
            faces = tuple(d["face"] for d in drawn)
            if self.protocol < 2:
                self.foreseeable.append((number, "", _name(actor)))
                self._in_sequence(number, made["counter"], self.expected, "")
                self.expected = made["counter"] + made["draws"]
                self._follows(number, made, self._seeded(), b"", sides, faces)
            elif made.get("leaf") is not None:
                self.foreseeable.append((number, "hidden", _name(actor)))
                self._hidden_roll(made, actor, sides, faces)
            elif made.get("lane") is not None:
                member = made["lane"]
                if amends is not None and member != amends.roller:
                    self.problems.append(
                        f"ruling {number}: amends ruling {amends.ruling}, made by "
                        f"{amends.roller}, but drew {member}'s committed dice"
                    )
                elif amends is None and member != actor:
                    self.problems.append(
                        f"ruling {number}: made by {actor} but drew {member}'s committed dice"
                    )
                self._in_sequence(number, made["counter"], self.lanes.get(member, 0), member)
                self.lanes[member] = made["counter"] + made["draws"]
                self.foreseeable.append((number, _name(member), _name(actor)))
                self._follows(number, made, self._seeded(), lane(member), sides, faces)
            else:
                self.problems.append(f"ruling {number}: committed dice of no member's counters")
        except Exception as error:  # a header that does not read as a roll: named, not raised
            self.failure = error
            self.failed_at = made.get("number") if isinstance(made, dict) else None

    def sealed_roll(
        self, made: dict[str, Any], actor: Any, seat_key: str, links: Links | None = None
    ) -> None:
        """A roll its roller sealed (protocol 3): the seal is theirs, by the key on their seat
        then, over the roll as recorded (or, sealed through Discord, Discord's signature of the
        interaction that asked for it: ``links``), their sealed rolls run 0, 1, 2..., and with
        the seed revealed its dice follow from the seed and the seal."""
        self.rolls += made.get("counter") is not None
        if self.failure is not None:
            return
        try:
            number, member, sealed, seal = (
                made["number"],
                made["lane"],
                made["sealed"],
                made["seal"],
            )
            if member != actor:
                self.problems.append(f"ruling {number}: made by {actor} but sealed as {member}'s")
            expected = self.seals.get(member, 0)
            if sealed != expected and not (self.withheld and _at_least(sealed, expected)):
                self.problems.append(
                    f"ruling {number}: {member}'s sealed roll {sealed}, expected {expected} "
                    "(sealed rolls run 0, 1, 2... without gaps or repeats)"
                )
            self.seals[member] = sealed + 1
            self.sealed.append((number, _name(member), str(seal)))
            args = canonical_json(json.loads(made["params"])["args"]).decode()
            message = seal_message(self.seed_hash, member, sealed, made["command"], args)
            if made.get("interaction"):
                self._through_discord(made, args, links)
            elif not seat_key:
                self.problems.append(
                    f"ruling {number}: sealed as {member}'s, who had no key on their seat"
                )
            elif not signature_holds(seat_key, message, seal):
                self.problems.append(
                    f"ruling {number}: its seal is not {member}'s signature of the roll recorded"
                )
            if made.get("counter") is None:
                return
            drawn = made["dice"]
            sides = tuple(d["sides"] for d in drawn)
            faces = tuple(d["face"] for d in drawn)
            if made["counter"] != 0:
                self.problems.append(f"ruling {number}: a sealed roll's counters start at 0")
            seeded = self._seeded()
            rolled_with = None if seeded is None else sealed_key(seeded, seal)
            self._follows(number, made, rolled_with, lane(member), sides, faces)
        except Exception as error:  # a header that does not read as a roll: named, not raised
            self.failure = error
            self.failed_at = made.get("number") if isinstance(made, dict) else None

    def _through_discord(self, made: dict[str, Any], args: str, links: Links | None) -> None:
        """A roll sealed through Discord: its interaction checked (``check_interaction``)."""
        from engine.dice.interactions import check_interaction

        number, member, signed = made["number"], made["lane"], made["interaction"]
        links = links or Links(system="", keys={}, account=None)
        try:
            check_interaction(
                signed,
                made["seal"],
                keys=links.keys,
                account=links.account,
                system=links.system,
                member=member,
                command=made["command"],
                args=args,
                used=self.interactions,
                session=self.session,
                not_before=self.committed_at,
            )
        except DomainError as error:
            self.problems.append(f"ruling {number}: {error.reason}")
        self.interactions.add(interaction_id(signed))

    def _hidden_roll(
        self, made: dict[str, Any], actor: Any, sides: tuple[int, ...], faces: tuple[int, ...]
    ) -> None:
        number, leaf = made["number"], made["leaf"]
        skipped = self.withheld and _at_least(leaf, self.leaves)  # leaves of withheld rolls
        if (leaf != self.leaves and not skipped) or made["counter"] != 0:
            self.problems.append(
                f"ruling {number}: hidden committed dice from leaf {leaf} counter "
                f"{made['counter']}, expected leaf {self.leaves} from counter 0"
            )
        self.leaves = leaf + 1
        shown = self.hidden_keys.get(number)
        if shown is None:
            self.hidden[number] = _name(actor)
            return
        leaf_key = bytes.fromhex(shown["leaf_key"])
        if shown["leaf"] != leaf or root_from(leaf_key, leaf, shown["proof"]) != self.hidden_root:
            self.problems.append(f"ruling {number}: its revealed hidden key was not committed")
            return
        self._follows(number, made, key(leaf_key, self.entropy()), b"", sides, faces)

    def _seeded(self) -> bytes | None:
        secret = self.secret()
        if secret is None:
            return None
        if self._key is None:
            self._key = key(secret, self.entropy())
        return self._key

    def _in_sequence(self, number: Any, counter: Any, expected: int, member: str) -> None:
        if counter != expected and not (self.withheld and _at_least(counter, expected)):
            whose = f" of {member}'s" if member else ""
            self.problems.append(
                f"ruling {number}: committed dice from counter {counter}{whose}, expected "
                f"{expected} (counters run 0, 1, 2... without gaps or repeats)"
            )

    def _follows(
        self,
        number: Any,
        made: dict[str, Any],
        rolled_with: bytes | None,
        lane_bytes: bytes,
        sides: tuple[int, ...],
        faces: tuple[int, ...],
    ) -> None:
        if rolled_with is None:
            return
        drawn, draws = replay(rolled_with, made["counter"], sides, lane_bytes)
        if drawn != faces or draws != made["draws"]:
            self.unfollowed.append(f"ruling {number}: the dice do not follow from the seed")


class SessionDice:
    """Each session's commitments (in log order) with the entropy added to each and their
    reveals (``first``), then each committed roll checked as its header is read (``read``),
    and what the players must see listed: every committed roll undone or hidden and never
    shown, every die of a committed session not drawn from its commitment."""

    def __init__(self) -> None:
        self.commitments: list[_Commitment] = []
        self.current: dict[int, _Commitment] = {}  # the latest commitment of each session
        self._ahead: dict[int, _Commitment] = {}  # version of its row: a commitment read first
        # each committed ruling not undone: its commitment's place in ``commitments``, plus 1
        self._rolled = ByRuling()
        self._rollers = Rollers()  # every ruling read so far: who made it
        self._last = 0  # the last header's number (a member's copy: a withheld one's, inferred)
        self._keys: dict[str, list[tuple[int, str]]] = {}  # each seat's keys: (row version, key)
        self._pending: list[str] = []  # the topics of the campaign rows since the last header
        self.put: dict[str, Seat] = {}  # each seat's last key: who put it there, from where
        self._system = ""  # the campaign's
        self._channels: list[tuple[int, str, str]] = []  # (row version, channel, key or "")
        self._links: list[tuple[int, str, str]] = []  # (row version, account or "", member)

    def first(self, rows: Iterable[StoredEvent]) -> None:
        """Read the commitments, entropy, keys and reveals ahead of the rest (rows that do not
        read are named when ``read`` meets them)."""
        current: dict[int, _Commitment] = {}
        keys: dict[str, Seat] = {}  # each seat's key then, who put it there, and from where
        for row in rows:
            body = stored_body(row)
            event: Any = body.get("event", {}) if isinstance(body, dict) else None
            try:
                if row.topic in LINKS:
                    self._linked(row.originator_version, row.topic, event)
                elif row.topic == COMMITTED:
                    made = _Commitment(event["session"], event, (body or {}).get("at"))
                    self._ahead[row.originator_version] = made
                    current[made.session] = made
                elif row.topic in (SEATED, UNSEATED):
                    self._links.append((row.originator_version, "", event["name"]))
                    keys.pop(event["name"], None)
                    self._keys.setdefault(event["name"], []).append((row.originator_version, ""))
                elif row.topic == KEY:
                    put = Seat(
                        event["key"], (body or {}).get("actor"), bool(event.get("signed_in"))
                    )
                    keys[event["name"]] = put
                    held = (row.originator_version, event["key"])
                    self._keys.setdefault(event["name"], []).append(held)
                    self.put[event["name"]] = put
                elif row.topic == ENTROPY and event.get("session") in current:
                    who = event["by"]
                    number = (body or {}).get("ruling")
                    seat = keys.get(who, Seat("", None, False))
                    current[event["session"]].add(number, event, seat)
                elif row.topic == REVEALED and event.get("session") in current:
                    revealed = current[event["session"]]
                    revealed.seed = event["seed"]
                    revealed.counters = event.get("counters")
                    revealed.shown_lanes = event.get("lanes")
                    revealed.shown_hidden = event.get("hidden")
                    revealed.shown_seals = event.get("sealed")
                elif row.topic == HIDDEN_SHOWN and event.get("session") in current:
                    current[event["session"]].hidden_keys[event["ruling"]] = event
            except (KeyError, TypeError, ValueError, AttributeError):
                continue

    def read(self, version: int, topic: str, body: dict[str, Any]) -> None:
        event = body.get("event", {})
        if topic != MADE:
            self._pending.append(topic)
        if topic == COMMITTED:
            committed = self._ahead.pop(version, None) or _Commitment(event["session"], event)
            self.commitments.append(committed)
            self.current[committed.session] = committed
        elif topic == ENTROPY and event.get("session") in self.current:
            _ = event["by"], event["words"]  # taken ahead: a row without them is named here
        elif topic == REVEALED and event.get("session") in self.current:
            _ = event["seed"]  # taken ahead: a row without it is named here
        elif topic == ENDED and event.get("number") in self.current:
            self.current[event["number"]].ended = True
        elif topic == MADE:
            pending, self._pending = self._pending, []
            self._made(body, event, version, bare=changed_nothing(event, pending))
        elif topic == RETRACTED:
            self._undone(body, event["ruling"])
        elif topic == SHOWN:
            for c in self.current.values():
                if c.hidden.pop(event["ruling"], None) is not None:  # shown without its key
                    c.problems.append(
                        f"ruling {event['ruling']} was revealed without its hidden dice's key: "
                        "its committed dice cannot be checked"
                    )

    def withheld(self, topic: str) -> None:
        """A row of the campaign stream withheld from a member's copy: a withheld ruling's
        header counts for the sessions running (``_Commitment.withheld``)."""
        if topic != MADE:
            self._pending.append(topic)
            return
        self._pending = []
        self._last += 1  # headers are numbered 1, 2, 3... in the order recorded
        for c in self.current.values():
            if not c.ended:
                c.withheld.append(self._last)

    def _linked(self, version: int, topic: str, event: dict[str, Any]) -> None:
        """A link's row, as the first pass reads it (Discord's only)."""
        if event.get("platform", DISCORD) != DISCORD:
            return
        if topic == CREATED:
            self._system = str(event["system"])
        elif topic == CHANNEL_LINKED:
            self._channels.append((version, str(event["channel"]), str(event.get("key", ""))))
        elif topic == CHANNEL_UNLINKED:
            self._channels.append((version, str(event["channel"]), ""))
        else:
            self._links.append((version, str(event["user"]), str(event["name"])))

    def links_at(self, member: Any, version: int) -> Links:
        """The system, the channels' keys and ``member``'s Discord account at ``version``."""
        keys = {channel: key for at, channel, key in self._channels if at < version}
        accounts: dict[str, str] = {}  # member: account
        for at, account, who in self._links:
            if at >= version:
                break
            accounts = {m: a for m, a in accounts.items() if m != who and a != account}
            if account:
                accounts[who] = account
        found = accounts.get(str(member))
        return Links(system=self._system, keys={c: k for c, k in keys.items() if k}, account=found)

    def key_at(self, member: Any, version: int) -> str:
        """The key on ``member``'s seat at the campaign stream's ``version``."""
        held = [key for at, key in self._keys.get(str(member), ()) if at < version]
        return held[-1] if held else ""

    def _made(
        self, body: dict[str, Any], event: dict[str, Any], version: int, *, bare: bool = False
    ) -> None:
        session = body.get("session") or 0
        actor = body.get("actor")
        number = event.get("number")
        if isinstance(number, int):
            self._rollers.put(number, str(actor))
            self._last = number
        c = self.current.get(session)
        if c is None or c.ended:
            return
        amends = redraw_of(event, self._rollers)
        if amends is not None and isinstance(number, int):
            _, listed = c.redraws.setdefault(amends.ruling, (amends.roller, []))
            listed.append((number, _name(actor)))
        if event.get("sealed") is not None:
            lane_of = event.get("lane")
            links = self.links_at(lane_of, version) if event.get("interaction") else None
            c.sealed_roll(event, actor, self.key_at(lane_of, version), links)
            if event.get("counter") is not None and isinstance(number, int):
                self._rolled.put(number, self._place(c))
            return
        if event.get("counter") is not None:
            c.roll(event, actor, amends)
            if isinstance(number, int):
                self._rolled.put(number, self._place(c))
                if bare:
                    c.bare.add(number)
            return
        provenance = event.get("provenance")
        uncommitted = event.get("dice") and provenance != Provenance.COMMITTED.value
        if uncommitted and c.lists(UNCOMMITTED, number):
            c.listed.append(
                f"ruling {number} ({event.get('command')}, by {actor}): its dice are "
                f"{provenance}, not drawn from the commitment"
            )

    def _place(self, c: _Commitment) -> int:
        """``c``'s place in ``commitments``, plus 1 (the last, nearly always)."""
        if self.commitments[-1] is c:
            return len(self.commitments)
        return next(i for i, each in enumerate(self.commitments, 1) if each is c)

    def _undone(self, body: dict[str, Any], ruling: Any) -> None:
        found = self._rolled.pop(ruling)
        if found:
            c, roller = self.commitments[found - 1], self._rollers.get(ruling, "nobody")
            c.hidden.pop(ruling, None)
            c.undone.add(ruling)
            if c.lists(UNDONE, ruling):
                c.listed.append(
                    f"ruling {ruling} (by {roller}): its committed dice were set aside, undone "
                    f"by {body.get('actor')} in ruling {body.get('ruling')}"
                )

    def checks(self) -> tuple[DiceCheck, ...]:
        seats = tuple(sorted((who, held[-1][1]) for who, held in self._keys.items() if held))
        keyboard = tuple(
            who
            for who, key in seats
            if key and who in self.put and not self.put[who].signed_in and self.put[who].key == key
        )
        checks = [
            attrs.evolve(self._check(c), seats=seats, keyboard=keyboard) for c in self.commitments
        ]
        return tuple(sorted(checks, key=lambda c: c.session))

    def _check(self, c: _Commitment) -> DiceCheck:
        warnings = self._warnings(c)
        problems = _problems(c)

        def check(revealed: bool) -> DiceCheck:
            return DiceCheck(
                c.session,
                c.rolls,
                revealed,
                tuple(problems),
                tuple(warnings),
                c.seed_hash,
                tuple(c.added),
                tuple((who, words, key) for who, words, _, key in c.counted),
                c.protocol,
                tuple(c.sealed),
                tuple(c.foreseeable),
                idle=idle_rolls(c),
            )

        if c.seed is None:
            return check(False)
        problems += _seed_problems(c, c.seed)
        return check(True)

    def _warnings(self, c: _Commitment) -> list[str]:
        """What the players must see of a commitment: its seed set aside, entropy not counted,
        dice not drawn from it, set aside or re-drawn, hidden rolls never revealed."""
        warnings = []
        if c is not self.current[c.session] and c.added:
            warnings.append(
                f"session {c.session} was started again after players added entropy: its "
                "first seed was set aside"
            )
        if c.added and not c.rolls and c.ended:
            warnings.append(
                f"session {c.session} ended after players added entropy and before any committed "
                "roll: its seed was set aside"
            )
        warnings += c.entropy_warnings
        if c.protocol >= 2 and c.rolls and not c.counted:
            warnings.append(
                f"no signed entropy of a player was counted in session {c.session}: the GM's "
                "machine alone chose its dice"
            )
        warnings += c.listed
        warnings += [
            c.counted_kinds[kind].summary(c.session, kind)
            for kind in (UNCOMMITTED, UNDONE)
            if kind in c.counted_kinds and c.counted_kinds[kind].past
        ]
        warnings += [redrawn(n, roller, by) for n, (roller, by) in sorted(c.redraws.items())]
        if c.withheld:
            numbers = ", ".join(map(str, c.withheld))
            warnings.append(
                f"ruling(s) {numbers} of session {c.session} are withheld from this copy (not "
                "yours to read): their dice, if any, are not checked here, and the counters after "
                "them only to move forward"
            )
        warnings += [
            f"ruling {n} (by {who}): its hidden committed dice were never revealed"
            for n, who in sorted(c.hidden.items())
        ]
        return warnings


def _at_least(value: Any, least: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _problems(c: _Commitment) -> list[str]:
    """What does not check out of a commitment's rolls and reveal, but its seed."""
    problems = list(c.problems)
    if c.failure is not None:
        problems.append(
            f"ruling {c.failed_at}'s committed dice do not read ({why(c.failure)}): the "
            "session's committed rolls from there on cannot be checked"
        )
    if c.counters is not None and c.counters != c.expected and not _loosely(c):
        problems.append(
            f"the reveal says the session's committed dice used {c.counters} counters; the "
            f"rolls recorded used {c.expected}"
        )
    if c.shown_lanes is not None and c.seed is not None and c.protocol >= 2:
        problems += _reveal_problems(c)
    return problems


def _reveal_problems(c: _Commitment) -> list[str]:
    """The reveal's counters per member, hidden leaves and sealed rolls (protocol 2 on) against
    those the rolls recorded used."""
    problems = []
    said = {str(who): n for who, n in c.shown_lanes or ()}
    sealed = {str(who): n for who, n in c.shown_seals or ()}
    if c.withheld:  # a member's copy: the withheld rolls drew counters the copy cannot see
        return _reveal_covers(c, said, sealed)
    if said != c.lanes or c.shown_hidden != c.leaves:
        problems.append(
            "the reveal's counters per member and hidden leaves are not the ones the "
            "rolls recorded used"
        )
    if c.protocol >= SEALED and sealed != c.seals:
        problems.append("the reveal's sealed rolls per member are not the sealed rolls recorded")
    return problems


def _loosely(c: _Commitment) -> bool:
    """Protocol 1's one counter, in a member's copy: the reveal's total at least the copy's."""
    return bool(c.withheld) and _at_least(c.counters, c.expected)


def _reveal_covers(c: _Commitment, said: dict[str, Any], sealed: dict[str, Any]) -> list[str]:
    """In a member's copy, the reveal's counters per member, hidden leaves and sealed rolls
    are at least those the rolls it holds used (the withheld ones used the rest)."""
    lanes = all(_at_least(said.get(who), n) for who, n in c.lanes.items())
    if not lanes or not (c.leaves == 0 or _at_least(c.shown_hidden, c.leaves)):
        return [
            "the reveal's counters per member and hidden leaves are fewer than the rolls "
            "recorded used"
        ]
    if c.protocol >= SEALED and not all(_at_least(sealed.get(w), n) for w, n in c.seals.items()):
        return ["the reveal's sealed rolls per member are fewer than the sealed rolls recorded"]
    return []


def _seed_problems(c: _Commitment, seed: str) -> list[str]:
    """Of the revealed ``seed``: not hex, not the one committed, or the rolls it does not
    give."""
    try:
        bytes.fromhex(seed)
    except (TypeError, ValueError):
        return ["the revealed seed is not a hex string"]
    if c.secret() is None:  # not the one committed (or the commitment does not read)
        return ["the revealed seed is not the one committed"]
    return list(c.unfollowed)


def changed_nothing(made: dict[str, Any], rows: list[str]) -> bool:
    """Whether a ruling, by its header and the topics of its rows on the campaign's stream, is
    a roll that changed nothing: every row it wrote (``touched``, on any stream) is a free
    roll's record (``FreeRollMade``), so it touched no state beyond the roll itself."""
    try:
        wrote = sum(r["last"] - r["first"] + 1 for r in made.get("touched") or ())
    except (KeyError, TypeError):
        return False
    return bool(rows) and wrote == len(rows) and all(topic == FREE_ROLL for topic in rows)


def idle_rolls(c: _Commitment) -> tuple[IdleRoll, ...]:
    """The committed rolls nobody sealed that changed nothing (each spent a counter the GM's
    machine could foresee): undone, hidden and never revealed, or a free roll with no
    consequence, in the order recorded."""
    found = []
    for number, whose, actor in c.foreseeable:
        if number in c.undone:
            why = IDLE_UNDONE
        elif number in c.hidden:
            why = IDLE_HIDDEN
        elif number in c.bare:
            why = IDLE_FREE
        else:
            continue
        found.append(IdleRoll(ruling=number, lane=whose, by=actor, why=why))
    return tuple(found)


@frozen
class Redraw(Plain):
    """An amendment's re-draw: the ruling it amends, who made that ruling (whose lane it draws
    from), and how many of the amendment's dice (its last) it drew anew."""

    ruling: int
    roller: str
    new: int


class ByRuling:
    """A small whole number per ruling (0: none), in an array by the ruling's number: 4 bytes
    a ruling where a dict would spend a hundred; a number far past the last read (a header
    that does not read as the walk expects) is kept apart."""

    SPAN = 1 << 20  # how far past the array's end a number may grow it

    def __init__(self) -> None:
        self._by = array("I")
        self._apart: dict[int, int] = {}

    def put(self, ruling: int, value: int) -> None:
        if 0 <= ruling < len(self._by) + self.SPAN:
            if ruling >= len(self._by):
                self._by.frombytes(bytes(self._by.itemsize * (ruling + 1 - len(self._by))))
            self._by[ruling] = value
        else:
            self._apart[ruling] = value

    def get(self, ruling: Any) -> int:
        if not isinstance(ruling, int):
            return 0
        if 0 <= ruling < len(self._by):
            return self._by[ruling]
        return self._apart.get(ruling, 0)

    def pop(self, ruling: Any) -> int:
        found = self.get(ruling)
        if found:
            self.put(ruling, 0)
        return found


class Rollers:
    """Who made each ruling read so far, compactly: a few names, many rulings, so each
    ruling holds the index of its maker's name."""

    def __init__(self) -> None:
        self._names: list[str] = [""]  # index 0: nobody recorded
        self._index: dict[str, int] = {}
        self._by = ByRuling()

    def put(self, ruling: int, name: str) -> None:
        at = self._index.get(name)
        if at is None:
            at = self._index[name] = len(self._names)
            self._names.append(sys.intern(name))
        self._by.put(ruling, at)

    def get(self, ruling: int, default: str) -> str:
        at = self._by.get(ruling)
        return self._names[at] if at else default


def redraw_of(event: dict[str, Any], rollers: Rollers | dict[int, str]) -> Redraw | None:
    """The re-draw an amendment's header records (None: another header, or an amendment that
    drew no die); ``rollers``: who made each ruling read so far."""
    if event.get("command") != AMEND:
        return None
    params = json.loads(event["params"])
    new = params.get("new_dice")
    if not new:
        return None
    ruling = params["ruling"]
    if not isinstance(ruling, int) or isinstance(ruling, bool):  # named where it is read
        raise ValueError(f"the ruling it amends is {ruling!r}, not a ruling's number")
    return Redraw(ruling=ruling, roller=rollers.get(ruling, "nobody"), new=int(new))


def redrawn(ruling: int, roller: str, by: list[tuple[int, str]]) -> str:
    """The warning that lists the re-draws of ``ruling``'s dice with their count."""
    count = len(by)
    times = "once" if count == 1 else f"{count} times"
    amendments = ", ".join(str(number) for number, _ in by)
    who = ", ".join(dict.fromkeys(actor for _, actor in by))
    noun = "amendment" if count == 1 else "amendments"
    return (
        f"ruling {ruling} (by {roller}): its dice were re-drawn {times}, by {noun} "
        f"{amendments} (by {who})"
    )


class HeaderDice:
    """A ruling names a committed-dice counter exactly when it drew committed dice, in a
    session that committed to a seed (an amendment that drew no die names none: its dice are
    those of the ruling it amends); a session that ended revealed it. Fed each header as it is
    read."""

    def __init__(self, campaign_id: Any) -> None:
        self.campaign_id = campaign_id
        self.found: list[Finding | tuple[Any, Finding]] = []  # (session, finding): unless it
        self.rolled: dict[Any, int] = {}  # committed after all

    def read(self, version: int, number: Any, session: Any, event: dict[str, Any]) -> None:
        committed = _COMMITTED
        provenance, counter = event.get("provenance"), event.get("counter")
        if counter is None and provenance != committed:  # no committed dice: nothing to say
            return
        # corrections re-use recorded dice, but for the dice an amendment drew anew
        drew = event.get("command") not in CORRECTIONS or redraw_of(event, {}) is not None
        where = (self.campaign_id, version, as_int(number), as_int(session))
        if provenance == committed and counter is None and drew:
            problem = f"ruling {number}'s dice are committed ones but it names no counter"
            self.found.append(Finding("dice", problem, *where))
        elif counter is not None and provenance != committed:
            problem = (
                f"ruling {number} names committed-dice counter {counter} but its dice "
                f"are {provenance or 'none'}"
            )
            self.found.append(Finding("dice", problem, *where))
        elif counter is not None:
            problem = (
                f"ruling {number} drew committed dice in session {session}, which "
                "committed to no seed"
            )
            self.found.append((session, Finding("dice", problem, *where)))
        if counter is not None:
            self.rolled[session] = self.rolled.get(session, 0) + 1

    def findings(self, ledger: RulingLedger) -> Iterator[Finding]:
        for entry in self.found:
            if isinstance(entry, Finding):
                yield entry
            elif entry[0] not in ledger.committed:
                yield entry[1]
        owner = ledger.owner(ledger.campaign_id)
        for session, since in ledger.committed.items():  # every committed session that ended
            count = self.rolled.get(session, 0)
            ends = [v for n, v in ledger.ended if n == session and v > since]
            if ends and ledger.revealed.get(session, 0) < since:
                problem = (
                    f"session {session} ended without revealing its seed: its {count} "
                    "committed rulings cannot be checked"
                )
                yield Finding("dice", problem, ledger.campaign_id, ends[0], owner(ends[0]), session)

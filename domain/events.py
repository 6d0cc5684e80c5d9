"""The event base and the events every system shares (campaign, roster, sessions, scenes, rulings).

Events are facts in the past tense. They carry resolved values, never inputs to re-run: replaying
a log never rolls a die and never re-runs a rule. The envelope (stream, version, time, ruling,
actor, session, scene) is added by the engine when the events are recorded.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar
from uuid import UUID

from attrs import frozen

from domain.dice import Die, Provenance
from domain.plain import Plain
from domain.rolls_by_terms import upcast_roll


@frozen(kw_only=True)
class Event(Plain):
    """Base of every domain event. ``class_version`` > 1 needs ``upcast_vN_vN+1`` static methods."""

    class_version: ClassVar[int] = 1
    # The fields holding what somebody wrote (a note, a reason): what `campaign search` finds.
    searchable: ClassVar[tuple[str, ...]] = ()


@frozen(kw_only=True)
class HouseRule(Plain):
    """One house-rule setting in force, as text (``maxStrainPerTest`` = ``1``)."""

    key: str
    value: str


# --- Directory stream: which campaigns a store holds ------------------------------------------


@frozen(kw_only=True)
class CampaignRegistered(Event):
    """A campaign was added to the store's directory."""

    campaign_id: UUID
    name: str
    system: str


# --- Campaign stream -------------------------------------------------------------------------


@frozen(kw_only=True)
class CampaignCreated(Event):
    """A campaign began under a rule system and these house rules (defaults filled in)."""

    campaign_id: UUID
    name: str
    system: str
    gm: str
    house_rules: tuple[HouseRule, ...]


@frozen(kw_only=True)
class CharacterJoined(Event):
    """A character joined the campaign's roster."""

    character_id: UUID
    name: str
    player: str


@frozen(kw_only=True)
class RosterRenamed(Event):
    """A character on the roster is known by a new name from now on (its system renamed it)."""

    character_id: UUID
    name: str


@frozen(kw_only=True)
class SessionStarted(Event):
    """A game session began. ``physical_dice``: the GM said the table rolls real dice, so
    players may type the faces they rolled (each such die is listed by the players' check)."""

    number: int
    physical_dice: bool = False


@frozen(kw_only=True)
class SessionEnded(Event):
    """A game session ended."""

    number: int


@frozen(kw_only=True)
class SceneStarted(Event):
    """The GM set the stage for a new scene."""

    number: int
    stage: str


@frozen(kw_only=True)
class SceneEnded(Event):
    """A scene ended."""

    number: int


@frozen(kw_only=True)
class StreamHead(Plain):
    """The last event of a stream at a moment: its version and chain link."""

    stream: UUID
    version: int
    chain: str


@frozen(kw_only=True)
class SessionSealed(Event):
    """The session's log was sealed: one digest over the heads of every stream it touched
    (the GM posts the digest; anyone can check the log against it later). ``previous`` is the
    digest of the seal before it in the campaign (empty for the first, and in logs written
    before seals were chained); the digest covers it, so removing a session's end breaks the
    next session's seal."""

    number: int
    digest: str
    heads: tuple[StreamHead, ...]
    previous: str = ""


@frozen(kw_only=True)
class DiceCommitted(Event):
    """The session's digital dice were committed: the SHA-256 of a secret seed (revealed when the
    session ends), mixed with the players' entropy. ``protocol`` 2 (every session started since
    players sign their entropy): ``seed_hash`` is over the seed and ``hidden_root``, the root of
    the tree of the hidden rolls' keys (each revealed with its roll); ``entropy`` is empty."""

    session: int
    seed_hash: str
    entropy: str
    protocol: int = 1
    hidden_root: str = ""


@frozen(kw_only=True)
class EntropyAdded(Event):
    """A player added entropy to the running session's committed dice, after the commitment
    was published and before the first committed roll."""

    session: int
    by: str
    words: str
    signature: str = ""  # Ed25519 by the key on ``by``'s seat (hex); "" unsigned: not counted


@frozen(kw_only=True)
class EntropyClosed(Event):
    """The GM closed the running session's entropy window before every player with a key had
    added words (protocol 3), saying why; ``left_out``: the players whose words it was waiting
    for."""

    searchable: ClassVar[tuple[str, ...]] = ("reason",)

    session: int
    reason: str
    left_out: tuple[str, ...] = ()


@frozen(kw_only=True)
class DiceRevealed(Event):
    """The session's secret seed was revealed: every committed roll can now be recomputed.
    ``counters``: how many counters the session's committed rolls used in all (None in older
    logs), so that no roll can be dropped or relabelled at the end of the run."""

    session: int
    seed: str
    counters: int | None = None
    lanes: tuple[tuple[str, int], ...] = ()  # protocol 2: the counters each member's rolls used
    hidden: int | None = None  # protocol 2: the hidden rolls' leaves used
    sealed: tuple[tuple[str, int], ...] = ()  # protocol 3: the rolls each member sealed


@frozen(kw_only=True)
class NoteAdded(Event):
    """Somebody wrote a note into the log; a GM-only note never reaches a public recap."""

    searchable: ClassVar[tuple[str, ...]] = ("text",)

    text: str
    gm_only: bool = False


# --- The table's people: members and their roles, disputes -----------------------------------


class Role(StrEnum):
    """What a member of a campaign may do: run it, play their characters, or watch."""

    GM = "gm"
    PLAYER = "player"
    OBSERVER = "observer"


@frozen(kw_only=True)
class MemberAdded(Event):
    """Somebody joined the campaign's table in a role (a player with the characters they play)."""

    name: str
    role: Role
    characters: tuple[UUID, ...] = ()
    names: tuple[str, ...] = ()  # the characters' names when bound, for the log


@frozen(kw_only=True)
class MemberRemoved(Event):
    """Somebody left the campaign's table; what they did stays in the log under their name."""

    name: str


@frozen(kw_only=True)
class MemberKeyRegistered(Event):
    """A member's public key (Ed25519, hex) was put on their seat: the entropy they add to a
    session's dice is counted only when signed by it. A later key replaces an earlier one.
    ``signed_in``: the member put it there themself, from their own signed-in client (the
    table page, Discord); False: at the GM's keyboard (the CLI, ``--as`` included, or a log
    written before this field), where entropy it signs is not counted (protocol 4 on)."""

    name: str
    key: str
    signed_in: bool = False


# --- Where the table plays besides here: chat links, channels and their users (domain.links) ------


@frozen(kw_only=True)
class ChannelLinked(Event):
    """A chat channel now plays this campaign: what its members do there is recorded here."""

    platform: str  # "discord"
    channel: str  # the channel's id on the platform (a Discord snowflake)
    # The Discord application's public key (64 hex digits): what checks the interactions that
    # seal the players' rolls made there (protocol 3); "" when the link gave none.
    key: str = ""


@frozen(kw_only=True)
class ChannelUnlinked(Event):
    """A chat channel no longer plays this campaign."""

    platform: str
    channel: str


@frozen(kw_only=True)
class MemberLinked(Event):
    """A member's account on a chat platform: what that account does there is done by the
    member. A later link of the member replaces an earlier one."""

    name: str
    platform: str
    user: str  # the account's id on the platform (a Discord snowflake)


class Visibility(StrEnum):
    """Who may read a ruling: everyone at the table, the GMs only (a hidden roll, until it is
    revealed), or the GMs and the members named in its ``audience``."""

    PUBLIC = "public"
    GM = "gm"
    PRIVATE = "private"


@frozen(kw_only=True)
class RulingRevealed(Event):
    """The GM showed the table a ruling they had kept hidden (its dice and its outcome)."""

    ruling: int


@frozen(kw_only=True)
class HiddenDiceRevealed(Event):
    """The key of a hidden committed roll, published with its reveal: ``leaf_key`` (hex) is leaf
    ``leaf`` of session ``session``'s tree of hidden keys and ``proof`` its Merkle path to the
    ``hidden_root`` committed, so the roll verifies without revealing any other hidden roll."""

    ruling: int
    session: int
    leaf: int
    leaf_key: str
    proof: tuple[str, ...]


class Outcome(StrEnum):
    """How the GM resolved a dispute."""

    UPHELD = "upheld"
    UNDONE = "undone"
    AMENDED = "amended"


@frozen(kw_only=True)
class RulingDisputed(Event):
    """A player or observer objected to a ruling, with a reason; it stays open until resolved."""

    searchable: ClassVar[tuple[str, ...]] = ("reason",)

    dispute: int
    ruling: int
    by: str
    reason: str


@frozen(kw_only=True)
class DisputeResolved(Event):
    """The GM resolved a dispute: the ruling stands (upheld), or the ruling that records this
    undid or amended it."""

    searchable: ClassVar[tuple[str, ...]] = ("reason",)

    dispute: int
    ruling: int
    outcome: Outcome
    reason: str


@frozen(kw_only=True)
class StreamRange(Plain):
    """The versions one ruling wrote to one stream (first..last, inclusive)."""

    stream: UUID
    first: int
    last: int


# The command names of the two corrections (a ruling's header says which it was).
UNDO = "undo"
AMEND = "amend"
CORRECTIONS = frozenset({UNDO, AMEND})


@frozen(kw_only=True)
class RulingMade(Event):
    """A command was resolved: what was asked (command and parameters), the dice, what it touched.

    ``params`` is the command as canonical JSON, so a ruling can be re-resolved with corrected
    parameters and the same dice. ``seed`` is set when the dice were seeded digital dice;
    ``counter`` and ``draws`` when they were drawn from the session's committed seed (the HMAC
    counters ``counter`` .. ``counter + draws - 1``): in protocol 2 of the counters of ``lane``
    (the member who rolled) or, for a hidden roll, of hidden leaf ``leaf``. ``seal`` (protocol 3):
    the roller's own Ed25519 signature of the roll (``domain.signatures.seal_message``), made
    on their client when they asked for it; ``sealed``: which of their sealed rolls it is (0, 1,
    2... in the session). A sealed roll's dice come from the committed seed *and* the seal, so
    nobody who lacks the roller's key can foresee them. ``interaction``: of a roll sealed
    through Discord, what Discord signed (the interaction's ``X-Signature-Timestamp`` followed by
    its raw body, as text); its ``seal`` is then Discord's signature of it, by the application key
    recorded when the channel was linked (``engine.dice.interactions``).
    """

    number: int
    command: str
    params: str
    dice: tuple[Die, ...]
    provenance: Provenance | None
    seed: int | None
    touched: tuple[StreamRange, ...]
    counter: int | None = None
    draws: int = 0
    visibility: Visibility = Visibility.PUBLIC
    audience: tuple[str, ...] = ()  # who besides the GMs reads a private ruling
    lane: str | None = None
    leaf: int | None = None
    seal: str = ""
    sealed: int | None = None
    interaction: str = ""


@frozen(kw_only=True)
class RulingRetracted(Event):
    """A ruling was undone: its events on this stream (``versions``) no longer count in replay."""

    searchable: ClassVar[tuple[str, ...]] = ("reason",)

    ruling: int
    reason: str
    versions: tuple[int, ...]


@frozen(kw_only=True)
class RulingAmended(Event):
    """A ruling was re-resolved with corrected parameters and the same dice. On this stream its
    events (``versions``) are replaced, in replay, by ``events`` at the ruling's place.
    ``redecided``: it was decided again, unchanged, on a history an earlier correction changed
    (by the undo or amendment of an earlier ruling)."""

    searchable: ClassVar[tuple[str, ...]] = ("reason",)

    ruling: int
    reason: str
    versions: tuple[int, ...]
    events: tuple[Event, ...]
    redecided: bool = False

    @property
    def kind(self) -> str:
        """What the log calls it: ``amended`` or ``re-decided``."""
        return "re-decided" if self.redecided else "amended"


# --- Free rolls: dice no rule names ----------------------------------------------------------


@frozen(kw_only=True)
class FreeRollMade(Event):
    """Somebody rolled dice no rule names, saying why: the expression in standard notation,
    every face in the order drawn (rerolls and explosions included), how the total was reached
    (``breakdown``, as ``domain.dice_rolling`` writes it: ``[6,~1~,5,3] - 2``) and the total;
    the expression rolled again over the faces gives the same breakdown and total.

    Version 2; a version-1 roll held its terms, which are its faces and breakdown
    (``domain.rolls_by_terms``)."""

    class_version: ClassVar[int] = 2
    searchable: ClassVar[tuple[str, ...]] = ("why",)

    expression: str
    why: str
    faces: tuple[int, ...]
    breakdown: str
    total: int

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        upcast_roll(state)


# --- Posts: what the table writes, in character and out ----------------------------------------


class PostKind(StrEnum):
    """Who speaks in a post: the GM narrating, a character of the roster, an NPC (the GM's), or
    a member out of character."""

    NARRATION = "narration"
    CHARACTER = "character"
    NPC = "npc"
    OOC = "ooc"


@frozen(kw_only=True)
class InlineRoll(Plain):
    """A roll written inside a post (``[2d6+1]``, ``[4d6kh3 for the climb]``): where its
    brackets stand in the text (``start`` .. ``end``, end excluded), the expression and what it
    is for as written, and the roll as a free roll records it (faces, breakdown, total)."""

    start: int
    end: int
    expression: str
    why: str = ""
    faces: tuple[int, ...]
    breakdown: str
    total: int


@frozen(kw_only=True)
class PostWritten(Event):
    """Somebody at the table wrote a post (Markdown): the member who wrote it (``by``), who
    speaks (``kind``: narration, a character, an NPC, out of character; ``speaker`` the
    character's or NPC's name, ``character_id`` the roster's character), the members it was
    written to privately (``to``; empty: the whole table), its text as written and the rolls
    its text held, each where it stands.

    Version 2; a roll of a version-1 post held its terms, which are its faces and breakdown
    (``domain.rolls_by_terms``)."""

    class_version: ClassVar[int] = 2
    searchable: ClassVar[tuple[str, ...]] = ("text",)

    by: str
    kind: PostKind
    speaker: str = ""
    character_id: UUID | None = None
    to: tuple[str, ...] = ()
    text: str
    rolls: tuple[InlineRoll, ...] = ()

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        for roll in state.get("rolls", ()):
            upcast_roll(roll)

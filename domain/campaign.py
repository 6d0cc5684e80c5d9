"""The Campaign aggregate: system, house rules, roster, sessions, scenes and the ruling count."""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import Any, TypeVar
from uuid import UUID

import attrs
from attrs import frozen

from domain.errors import (
    AmbiguousCharacter,
    EntropyWindowClosed,
    NoActiveSession,
    NoCommittedDice,
    ReplayMismatch,
    SceneAlreadyActive,
    SceneNotActive,
    SceneStillActive,
    SessionAlreadyActive,
    UnknownCharacter,
)
from domain.events import (
    CampaignCreated,
    CampaignRegistered,
    ChannelLinked,
    ChannelUnlinked,
    CharacterJoined,
    DiceCommitted,
    DiceRevealed,
    DisputeResolved,
    EntropyAdded,
    EntropyClosed,
    Event,
    FreeRollMade,
    HiddenDiceRevealed,
    HouseRule,
    MemberAdded,
    MemberKeyRegistered,
    MemberLinked,
    MemberRemoved,
    NoteAdded,
    Outcome,
    PostWritten,
    Role,
    RosterRenamed,
    RulingDisputed,
    RulingMade,
    RulingRetracted,
    RulingRevealed,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionSealed,
    SessionStarted,
    Visibility,
)
from domain.interactions import interaction_id
from domain.plain import Plain

# The first dice protocol (``engine.dice.committed``) whose entropy counts only when signed by a
# key its member put on their seat from their own signed-in client (``MemberKeyRegistered``'s
# ``signed_in``): a key put there at the GM's keyboard could be the GM's own.
KEYS_SIGNED_IN = 4


@frozen(kw_only=True)
class RosterEntry(Plain):
    character_id: UUID
    name: str
    player: str


@frozen(kw_only=True)
class Member(Plain):
    """Somebody at the table: the GM (the campaign's creator is one without being added), a
    player bound to the characters they play, or an observer."""

    name: str
    role: Role
    characters: tuple[UUID, ...] = ()
    key: str = ""  # the public key (Ed25519, hex) their entropy is signed with; "" none yet
    key_signed_in: bool = False  # the key was put there from their own signed-in client


@frozen(kw_only=True)
class Dispute(Plain):
    """A ruling a member objected to, and how the GM resolved it (None while open)."""

    number: int
    ruling: int
    by: str
    reason: str
    outcome: Outcome | None = None
    resolution: str = ""


@frozen(kw_only=True)
class CampaignState(Plain):
    id: UUID
    name: str
    system: str
    gm: str
    house_rules: tuple[HouseRule, ...]
    roster: tuple[RosterEntry, ...] = ()
    session: int | None = None
    sessions: int = 0
    scene: int | None = None
    scenes: int = 0
    stage: str = ""
    rulings: int = 0
    retracted: frozenset[int] = frozenset()
    commitment: str | None = None  # the running session's committed seed hash
    commitment_entropy: str = ""  # entropy given with the commitment (older logs only)
    dice_counter: int = 0  # the next HMAC counter of the running session's committed dice
    entropy: tuple[tuple[str, str], ...] = ()  # (who, words) the players added since
    first_committed_roll: int | None = None  # the ruling that closed the entropy window
    dice_protocol: int = 1  # of the running session's commitment (engine.dice.committed)
    signed: tuple[tuple[str, str, str], ...] = ()  # protocol 2: (who, words, signature) counted
    lanes: tuple[tuple[str, int], ...] = ()  # protocol 2: each roller's next counter
    seals: tuple[tuple[str, int], ...] = ()  # protocol 3: each member's next sealed roll
    interactions: frozenset[str] = frozenset()  # protocol 3: Discord interactions that sealed
    entropy_closed: bool = False  # protocol 3: the GM closed the entropy window (a reason given)
    hidden_rolls: int = 0  # protocol 2: the next hidden roll's leaf
    hidden_root: str = ""  # protocol 2: the root of the running session's hidden keys
    hidden_dice: tuple[tuple[int, int, int], ...] = ()  # (ruling, session, leaf) not yet shown
    physical_dice: bool = False  # the running session's players may type the faces they roll
    members: tuple[Member, ...] = ()  # besides the GM who created the campaign
    disputes: tuple[Dispute, ...] = ()
    hidden: frozenset[int] = frozenset()  # rulings the GM kept hidden (revealed ones too)
    revealed: frozenset[int] = frozenset()
    private: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (ruling, who besides the GMs reads it)
    channels: tuple[tuple[str, str], ...] = ()  # (platform, channel id) that play this campaign
    accounts: tuple[tuple[str, str, str], ...] = ()  # (platform, account id, member) linked
    channel_keys: tuple[tuple[str, str], ...] = ()  # (channel id, the app's key at its link)

    def lane(self, member: str) -> int:
        """The next counter of ``member``'s committed rolls in the running session."""
        return dict(self.lanes).get(member, 0)

    def waiting_for_entropy(self) -> tuple[str, ...]:
        """The seated players with a key whose signed words the running session's dice still
        wait for (protocol 3): none once the window is closed, by a committed roll or the GM;
        never a player whose key was put on the seat at the GM's keyboard (their words would
        not count)."""
        if self.first_committed_roll is not None or self.entropy_closed:
            return ()
        added = {who for who, _, _ in self.signed}
        return tuple(
            m.name
            for m in self.seats
            if m.role is Role.PLAYER and m.key and m.name not in added and self.counts_key(m)
        )

    def counts_key(self, member: Member) -> bool:
        """Whether entropy signed by the key on ``member``'s seat counts in the running
        session's dice: from protocol 4 (``KEYS_SIGNED_IN``), only a key the member put there
        from their own signed-in client; before it, any key on the seat."""
        return self.dice_protocol < KEYS_SIGNED_IN or member.key_signed_in

    def next_seal(self, member: str) -> int:
        """Which of ``member``'s sealed rolls in the running session the next one is."""
        return dict(self.seals).get(member, 0)

    def channel_key(self, channel: str) -> str:
        """The Discord application's public key recorded when ``channel`` was linked ("": none,
        or the channel is not linked)."""
        return dict(self.channel_keys).get(channel, "")

    def member_on(self, platform: str, account: str) -> str | None:
        """The member whose account ``account`` on ``platform`` is (None: nobody linked it)."""
        return next((m for p, a, m in self.accounts if (p, a) == (platform, account)), None)

    def account_of(self, platform: str, member: str) -> str | None:
        """The account ``member`` linked on ``platform`` (None: none)."""
        return next((a for p, a, m in self.accounts if (p, m) == (platform, member)), None)

    def member(self, name: str) -> Member | None:
        """The member called ``name`` (the campaign's GM is one without being added)."""
        return next((m for m in self.seats if m.name == name), None)

    @property
    def seats(self) -> tuple[Member, ...]:
        """Everyone at the table: the campaign's GM first, then the members seated since."""
        return (Member(name=self.gm, role=Role.GM), *self.members)

    def own_characters(self, member: Member) -> frozenset[UUID]:
        """The characters a member plays: bound when added, or created with them as player."""
        played = {e.character_id for e in self.roster if e.player == member.name}
        return frozenset(played | set(member.characters))

    def open_disputes(self) -> tuple[Dispute, ...]:
        return tuple(d for d in self.disputes if d.outcome is None)

    def find(self, ref: str) -> RosterEntry:
        """The roster entry ``ref`` names, as people type it: the character's name, id or
        player exactly, else in any letter case, else the one name it begins (``tan`` for
        Tanner); a ``ref`` several characters answer to is refused listing them."""
        folded = ref.casefold()
        tries = (
            lambda e: ref in (e.name, str(e.character_id)),
            lambda e: e.player == ref,
            lambda e: e.name.casefold() == folded,
            lambda e: e.player.casefold() == folded,
            lambda e: bool(folded) and e.name.casefold().startswith(folded),
        )
        matches: list[RosterEntry] = []
        for answers in tries:
            matches = [e for e in self.roster if answers(e)]
            if matches:
                break
        if not matches:
            known = ", ".join(f"{e.name} ({e.player})" for e in self.roster) or "none yet"
            raise UnknownCharacter(ref=ref, known=known)
        if len(matches) > 1:
            raise AmbiguousCharacter(ref=ref, matches=", ".join(sorted(e.name for e in matches)))
        return matches[0]

    def require_session(self) -> int:
        if self.session is None:
            raise NoActiveSession()
        return self.session

    def require_scene(self) -> int:
        if self.scene is None:
            raise SceneNotActive()
        return self.scene


# --- Checks shared by commands (to refuse) and by replay (to find broken histories) -----------


def check_can_start_session(state: CampaignState) -> None:
    if state.session is not None:
        raise SessionAlreadyActive(number=state.session)


def check_can_end_session(state: CampaignState) -> int:
    number = state.require_session()
    if state.scene is not None:
        raise SceneStillActive(number=state.scene)
    return number


def check_can_start_scene(state: CampaignState) -> None:
    state.require_session()
    if state.scene is not None:
        raise SceneAlreadyActive(number=state.scene)


def check_entropy_window(state: CampaignState) -> int:
    """Entropy goes into the running session's committed dice before its first committed roll
    (``domain.lifecycle.AddEntropy``): the session's number."""
    session = state.require_session()
    if state.commitment is None:
        raise NoCommittedDice(session=session)
    if state.first_committed_roll is not None:
        raise EntropyWindowClosed(session=session, ruling=state.first_committed_roll)
    return session


# --- Replay -----------------------------------------------------------------------------------

T = TypeVar("T")
_EVOLVERS: dict[type[Any], Callable[..., Any]] = {}


def replace(inst: T, **changes: Any) -> T:
    """``attrs.evolve``, without its walk over the class's fields on every call: a campaign's
    replay evolves its state once an event, and the state has many fields. A class whose
    fields are all set by ``__init__`` under their own names gets one function built for it
    (passing each field, changed or as it was, to ``__init__``); any other, and any change
    that names no field, is left to ``attrs.evolve`` (which refuses it as before)."""
    cls = type(inst)
    evolver = _EVOLVERS.get(cls)
    if evolver is None:
        evolver = _EVOLVERS[cls] = _evolver(cls)
    result: T = evolver(inst, changes)
    return result


def _evolver(cls: type[Any]) -> Callable[[Any, dict[str, Any]], Any]:
    fields = attrs.fields(cls)
    if any(not a.init or a.alias != a.name for a in fields):
        return lambda inst, changes: attrs.evolve(inst, **changes)
    names = frozenset(a.name for a in fields)
    given = ", ".join(f"{a.name}=c[{a.name!r}] if {a.name!r} in c else s.{a.name}" for a in fields)
    source = (
        "def evolver(s, c):\n"
        "    if not c.keys() <= names:\n"
        "        return evolve(s, **c)\n"
        f"    return cls({given})\n"
    )
    space: dict[str, Any] = {"cls": cls, "names": names, "evolve": attrs.evolve}
    exec(compile(source, f"<evolve {cls.__qualname__}>", "exec"), space)
    evolver: Callable[[Any, dict[str, Any]], Any] = space["evolver"]
    return evolver


@singledispatch
def evolve_campaign(event: Event, state: CampaignState | None) -> CampaignState | None:
    """Apply one campaign event. Raises a DomainError when the event does not fit the state."""
    raise TypeError(f"no campaign rule for {type(event).__name__}")


@evolve_campaign.register(CampaignCreated)
def _created(event: CampaignCreated, state: CampaignState | None) -> CampaignState:
    if state is not None:
        raise ReplayMismatch("a campaign is created once")
    return CampaignState(
        id=event.campaign_id,
        name=event.name,
        system=event.system,
        gm=event.gm,
        house_rules=event.house_rules,
    )


def _require(state: CampaignState | None) -> CampaignState:
    if state is None:
        raise ReplayMismatch("a campaign stream must start with CampaignCreated")
    return state


@evolve_campaign.register(CharacterJoined)
def _joined(event: CharacterJoined, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    entry = RosterEntry(character_id=event.character_id, name=event.name, player=event.player)
    return replace(s, roster=(*s.roster, entry))


@evolve_campaign.register(RosterRenamed)
def _renamed(event: RosterRenamed, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    if not any(e.character_id == event.character_id for e in s.roster):
        raise ReplayMismatch(f"character {event.character_id} is not on the roster")
    who = event.character_id
    roster = tuple(replace(e, name=event.name) if e.character_id == who else e for e in s.roster)
    return replace(s, roster=roster)


@evolve_campaign.register(SessionStarted)
def _session_started(event: SessionStarted, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    check_can_start_session(s)
    return replace(
        s, session=event.number, sessions=event.number, physical_dice=event.physical_dice
    )


@evolve_campaign.register(SessionEnded)
def _session_ended(event: SessionEnded, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    check_can_end_session(s)
    return replace(s, session=None, physical_dice=False)


@evolve_campaign.register(SceneStarted)
def _scene_started(event: SceneStarted, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    check_can_start_scene(s)
    return replace(s, scene=event.number, scenes=event.number, stage=event.stage)


@evolve_campaign.register(SceneEnded)
def _scene_ended(event: SceneEnded, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    s.require_scene()
    return replace(s, scene=None, stage="")


@evolve_campaign.register(NoteAdded)
@evolve_campaign.register(FreeRollMade)
@evolve_campaign.register(PostWritten)
@evolve_campaign.register(SessionSealed)
def _noted(event: Event, state: CampaignState | None) -> CampaignState:
    return _require(state)


@evolve_campaign.register(RulingMade)
def _ruling(event: RulingMade, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    if event.sealed is not None:
        member = event.lane or ""
        seals = (*((m, n) for m, n in s.seals if m != member), (member, event.sealed + 1))
        s = replace(s, seals=seals)
        if event.interaction:  # each interaction seals one roll
            s = replace(s, interactions=s.interactions | {interaction_id(event.interaction)})
        if event.counter is not None:  # its dice are its seal's, not its lane's
            first = s.first_committed_roll or event.number
            return replace(s, rulings=event.number, first_committed_roll=first)
    if event.visibility is Visibility.GM:
        s = replace(s, hidden=s.hidden | {event.number})
    elif event.visibility is Visibility.PRIVATE:
        s = replace(s, private=(*s.private, (event.number, event.audience)))
    if event.counter is not None:
        s = replace(s, first_committed_roll=s.first_committed_roll or event.number)
        end = event.counter + event.draws
        if event.leaf is not None:
            pending = (*s.hidden_dice, (event.number, s.session or 0, event.leaf))
            return replace(
                s, rulings=event.number, hidden_rolls=event.leaf + 1, hidden_dice=pending
            )
        if event.lane is not None:
            lanes = (*((m, n) for m, n in s.lanes if m != event.lane), (event.lane, end))
            return replace(s, rulings=event.number, lanes=lanes)
        return replace(s, rulings=event.number, dice_counter=end)
    return replace(s, rulings=event.number)


@evolve_campaign.register(RulingRevealed)
def _ruling_revealed(event: RulingRevealed, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    if event.ruling not in s.hidden - s.revealed:
        raise ReplayMismatch(f"ruling {event.ruling} is not hidden")
    return replace(s, revealed=s.revealed | {event.ruling})


@evolve_campaign.register(DiceCommitted)
def _committed(event: DiceCommitted, state: CampaignState | None) -> CampaignState:
    return replace(
        _require(state),
        commitment=event.seed_hash,
        commitment_entropy=event.entropy,
        dice_counter=0,
        entropy=(),
        first_committed_roll=None,
        dice_protocol=event.protocol,
        signed=(),
        lanes=(),
        seals=(),
        interactions=frozenset(),
        entropy_closed=False,
        hidden_rolls=0,
        hidden_root=event.hidden_root,
    )


@evolve_campaign.register(EntropyAdded)
def _entropy(event: EntropyAdded, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    if s.session != event.session or s.commitment is None or s.first_committed_roll:
        raise ReplayMismatch("entropy is added to a running session's dice before they roll")
    s = replace(s, entropy=(*s.entropy, (event.by, event.words)))
    member = s.member(event.by)
    if event.signature and (member is None or s.counts_key(member)):
        s = replace(s, signed=(*s.signed, (event.by, event.words, event.signature)))
    return s


@evolve_campaign.register(EntropyClosed)
def _entropy_closed(event: EntropyClosed, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    if s.session != event.session or s.commitment is None or s.first_committed_roll:
        raise ReplayMismatch("the entropy window is closed in a running session, before a roll")
    return replace(s, entropy_closed=True)


@evolve_campaign.register(DiceRevealed)
def _revealed(event: DiceRevealed, state: CampaignState | None) -> CampaignState:
    return replace(
        _require(state),
        commitment=None,
        commitment_entropy="",
        dice_counter=0,
        entropy=(),
        first_committed_roll=None,
        dice_protocol=1,
        signed=(),
        lanes=(),
        seals=(),
        interactions=frozenset(),
        entropy_closed=False,
        hidden_rolls=0,
        hidden_root="",
    )


@evolve_campaign.register(HiddenDiceRevealed)
def _hidden_dice_revealed(event: HiddenDiceRevealed, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    pending = tuple(h for h in s.hidden_dice if h[0] != event.ruling)
    if len(pending) == len(s.hidden_dice):
        raise ReplayMismatch(f"ruling {event.ruling} drew no hidden committed dice")
    return replace(s, hidden_dice=pending)


@evolve_campaign.register(RulingRetracted)
def _retracted(event: RulingRetracted, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    return replace(s, retracted=s.retracted | {event.ruling})


@evolve_campaign.register(MemberAdded)
def _member_added(event: MemberAdded, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    if any(m.name == event.name for m in s.members):
        raise ReplayMismatch(f"{event.name} is a member already")
    member = Member(name=event.name, role=event.role, characters=event.characters)
    return replace(s, members=(*s.members, member))


@evolve_campaign.register(MemberRemoved)
def _member_removed(event: MemberRemoved, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    if not any(m.name == event.name for m in s.members):
        raise ReplayMismatch(f"{event.name} is not a member")
    accounts = tuple(a for a in s.accounts if a[2] != event.name)  # their links go with them
    members = tuple(m for m in s.members if m.name != event.name)
    return replace(s, members=members, accounts=accounts)


@evolve_campaign.register(ChannelLinked)
def _channel_linked(event: ChannelLinked, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    linked = (event.platform, event.channel)
    if linked in s.channels:
        raise ReplayMismatch(f"channel {event.channel} is linked already")
    keys = (*s.channel_keys, (event.channel, event.key)) if event.key else s.channel_keys
    return replace(s, channels=(*s.channels, linked), channel_keys=keys)


@evolve_campaign.register(ChannelUnlinked)
def _channel_unlinked(event: ChannelUnlinked, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    linked = (event.platform, event.channel)
    if linked not in s.channels:
        raise ReplayMismatch(f"channel {event.channel} is not linked")
    keys = tuple(k for k in s.channel_keys if k[0] != event.channel)
    return replace(s, channels=tuple(c for c in s.channels if c != linked), channel_keys=keys)


@evolve_campaign.register(MemberLinked)
def _member_linked(event: MemberLinked, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    if s.member(event.name) is None:
        raise ReplayMismatch(f"{event.name} is not a member")
    kept = tuple(
        a
        for a in s.accounts
        if a[0] != event.platform or (a[2] != event.name and a[1] != event.user)
    )
    return replace(s, accounts=(*kept, (event.platform, event.user, event.name)))


@evolve_campaign.register(MemberKeyRegistered)
def _member_key(event: MemberKeyRegistered, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    if not any(m.name == event.name for m in s.members):
        raise ReplayMismatch(f"{event.name} is not a member")
    members = tuple(
        replace(m, key=event.key, key_signed_in=event.signed_in) if m.name == event.name else m
        for m in s.members
    )
    return replace(s, members=members)


@evolve_campaign.register(RulingDisputed)
def _disputed(event: RulingDisputed, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    dispute = Dispute(number=event.dispute, ruling=event.ruling, by=event.by, reason=event.reason)
    return replace(s, disputes=(*s.disputes, dispute))


@evolve_campaign.register(DisputeResolved)
def _resolved(event: DisputeResolved, state: CampaignState | None) -> CampaignState:
    s = _require(state)
    if not any(d.number == event.dispute and d.outcome is None for d in s.disputes):
        raise ReplayMismatch(f"dispute {event.dispute} is not open")
    disputes = tuple(
        replace(d, outcome=event.outcome, resolution=event.reason)
        if d.number == event.dispute
        else d
        for d in s.disputes
    )
    return replace(s, disputes=disputes)


# --- The store's directory of campaigns --------------------------------------------------------


@frozen(kw_only=True)
class DirectoryEntry(Plain):
    campaign_id: UUID
    name: str
    system: str


@frozen(kw_only=True)
class Directory(Plain):
    campaigns: tuple[DirectoryEntry, ...] = ()

    def named(self, name: str) -> DirectoryEntry | None:
        return next((c for c in self.campaigns if c.name == name), None)


def evolve_directory(event: Event, state: Directory | None) -> Directory:
    directory = state or Directory()
    if isinstance(event, CampaignRegistered):
        entry = DirectoryEntry(campaign_id=event.campaign_id, name=event.name, system=event.system)
        return replace(directory, campaigns=(*directory.campaigns, entry))
    return directory

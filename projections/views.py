"""The shapes of the recap and Exposure timeline views (their JSON formats), as typed dicts.

A view is a plain dict at run time: ``json.dumps`` writes it as it was built. The key order of a
view is the order its builder (``projections.recap``, ``projections.timeline``) writes, not the
order of the fields below; parts copied whole from a read model's document keep the document's
order.
"""

from __future__ import annotations

from typing import Literal, TypedDict

CorrectionKind = Literal["undone", "amended", "re-decided"]
Outcome = Literal["upheld", "undone", "amended"]

# --- A session recap (``campaign-log/recap``) ---------------------------------------------------


class RecapCampaign(TypedDict):
    """The campaign a recap is of."""

    name: str
    system: str
    gm: str


class SessionSpan(TypedDict):
    """The session a recap is of: when it started and ended (None while it runs)."""

    number: int
    started_at: str
    ended_at: str | None


class Line(TypedDict):
    """One line of a ruling, and the character it is about (None: the campaign)."""

    who: str | None
    text: str


class Beat(TypedDict):
    """A ruling that stands, as it stands now."""

    ruling: int
    command: str
    actor: str
    at: str
    text: str
    lines: list[Line]
    amended_by: int | None


class StoryBeat(TypedDict):
    """A part of what happened: a post (narration, a character's or an NPC's words) or a
    ruling's narration (``voice`` ``say``) with what the ruling did (``beat``)."""

    ruling: int
    voice: str
    speaker: str
    text: str
    beat: str


class Scene(TypedDict):
    """A part of a session: a scene (``number`` None between scenes) and its beats."""

    number: int | None
    stage: str | None
    beats: list[Beat]


class Highlight(TypedDict):
    """Something worth retelling (a level up, a detail revealed) and the ruling it came from."""

    ruling: int
    who: str | None
    kind: str
    text: str


class ScoreSpan(TypedDict):
    """A score a character's session moved: where it started and ended."""

    score: str
    start: int | str
    end: int | str


class CharacterScores(TypedDict):
    """A character at the end of a session: the scores moved and the details revealed."""

    name: str
    scores: list[ScoreSpan]
    revealed: list[str]


class Correction(TypedDict):
    """A ruling undone, amended or re-decided: by which ruling, who, why, its lines before and
    after (``session``: the ruling's session, None before the first)."""

    ruling: int
    session: int | None
    kind: CorrectionKind
    by: int
    actor: str
    reason: str
    was: list[Line]
    now: list[Line]


class Dispute(TypedDict):
    """A dispute of a ruling and, once resolved (``outcome`` not None), how and by whom."""

    dispute: int
    ruling: int
    by: str
    reason: str
    outcome: Outcome | None
    resolution: str
    resolved_by: int | None
    actor: str | None


class Recap(TypedDict):
    """A session recap (see ``projections.recap``)."""

    format: str
    version: int
    campaign: RecapCampaign
    session: SessionSpan
    before_session: list[Beat]
    scenes: list[Scene]
    story: list[StoryBeat]
    highlights: list[Highlight]
    characters: list[CharacterScores]
    corrections: list[Correction]
    disputes: list[Dispute]


# --- A hero's Exposure timeline (``campaign-log/exposure-timeline``) ------------------------------


class Change(TypedDict):
    """One change of Exposure (and of its peak), and its cause."""

    before: int
    after: int
    delta: int
    cause: str
    peak_before: int
    peak_after: int


class Reveal(TypedDict):
    """A detail revealed: its level (None off the ladder), its value then, why, when."""

    detail: str
    level: int | None
    value: str
    cause: str
    gm_override: bool
    suggested: str | None
    session: int | None


class Voided(TypedDict):
    """Why a row no longer stands: the ruling that undid or amended it, who, why."""

    kind: CorrectionKind
    by: int
    actor: str
    reason: str


class Row(TypedDict):
    """A ruling that moved a hero's Exposure or revealed a detail."""

    amended_by: int | None
    ruling: int
    command: str
    session: int | None
    at: str
    actor: str
    changes: list[Change]
    because: list[str]
    reveals: list[Reveal]
    identity_public: bool
    voided: Voided | None
    replaces: int | None


class PublicDetail(TypedDict):
    """A detail the public knows, as it learnt it, and the session it learnt it in."""

    detail: str
    value: str
    level: int | None
    session: int | None


class Known(TypedDict):
    """A hero's Exposure, peak and public details at one point."""

    exposure: int
    peak: int
    public: list[PublicDetail]


class SessionEnd(Known):
    """What ``Known`` says at the end of session ``number`` (which is written first)."""

    number: int


class HeroTimeline(TypedDict):
    """One hero's Exposure reveal timeline (see ``projections.timeline``)."""

    format: str
    version: int
    campaign: str
    hero: str
    player: str
    start: int
    created: int
    rows: list[Row]
    sessions: list[SessionEnd]
    now: Known


# --- Every hero of a campaign (``campaign-log/exposure-campaign``) -------------------------------


class HeroStanding(TypedDict):
    """Where a hero stood at a session's end; ``public``: how many details were public."""

    hero: str
    exposure: int
    peak: int
    public: int


class SessionStanding(TypedDict):
    """Where each hero stood at the end of session ``number``."""

    number: int
    heroes: list[HeroStanding]


class CampaignTimeline(TypedDict):
    """Every hero's timeline in a campaign, and where each stood at each session's end
    (``campaign``: its name, None if the read model has not seen it)."""

    format: str
    version: int
    campaign: str | None
    heroes: list[HeroTimeline]
    sessions: list[SessionStanding]

"""How the shared code shows The Code (``projections.presentation``): besides the sheet and the
recap's facts, its heroes' Exposure timelines are a read model of their own and a page beside
the recap. The drawn sheet has the hero's Motivation bar, Reward Points and Popularity, the
Exposure ladder with what the public knows, the hero's details, Ability steps and problems
solved; an NPC's traits and Motivation. The turn panel gives the Motivation rolls owed and, in
a running session, the heroes whose Exposure roll is due before it may end (a contest is
settled in the ruling that calls it: none is ever left open)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.audience import Audience
from domain.campaign import CampaignState
from domain.rulesets.the_code.character import Reveal, TcHero
from domain.rulesets.the_code.tables import LADDER, STEPS
from projections.drawing import Badge, Bar, Drawing, Ladder, Part, Row, Rows, Step, Turn, TurnGroup
from projections.presentation import Page, Presentation
from projections.render_html import campaign_timeline_html
from projections.the_code_recap import HIGHLIGHTS, moved
from projections.the_code_sheet import sheet_extras, sheet_text, status
from projections.the_code_timeline_model import TimelineModel

PUBLIC = Badge("public", "warn")
SECRET = Badge("secret", "good")


def _timeline_page(engine: Any, campaign: str, audience: Audience) -> str:
    """The Code: every hero's Exposure over time, as the page's audience reads the log."""
    return campaign_timeline_html(engine.campaign_timelines(campaign, audience=audience))


def _motivation(h: TcHero) -> Bar:
    bought = f"{h.bonus_max} bought" if h.bonus_max else ""
    return Bar(title="Motivation", value=h.motivation, maximum=h.max_motivation, note=bought)


def _public(found: Reveal) -> Badge:
    """Public: on reaching its level, or (off the ladder) for the reason it became known."""
    cause = str(found.cause).replace("-", " ")
    return PUBLIC if found.level is not None else Badge(f"public: {cause}", PUBLIC.tone)


def exposure_ladder(h: TcHero) -> Ladder:
    """Levels 2 to 10, each with the detail the public learns there: reached at the hero's
    Exposure now, and public (with what was learnt) once revealed, on the ladder or off it (a
    public identity, a blab)."""
    known = {r.detail: r for r in h.revealed}

    def step(level: int) -> Step:
        detail = LADDER[level - 2]
        found = known.get(detail)
        value = "" if found is None else found.value
        return Step(
            level=level,
            label=detail.value.replace("-", " "),
            reached=level <= h.exposure,
            value=value,
            badges=(SECRET,) if found is None else (_public(found),),
        )

    note = (
        f"Exposure {h.exposure}, peak {h.peak}; {len(h.revealed)} of {len(LADDER)} details public"
    )
    return Ladder(
        title="Exposure ladder",
        steps=tuple(step(level) for level in range(2, len(LADDER) + 2)),
        at=h.exposure,
        note=note,
    )


def _details(h: TcHero) -> Rows:
    rows = [
        Row("Profession", h.profession),
        Row("Advantages", ", ".join(h.advantages)),
        Row("Weakness", h.weakness),
    ]
    if not h.npc:
        identity = PUBLIC if h.public_identity else SECRET
        rows.insert(0, Row("Identity", h.secret_identity, (identity,)))
        rows += [
            Row("MO", h.modus_operandi),
            Row("Objective", h.objective, note=f"score {h.objective_score}"),
        ]
    return Rows(title="The hero" if not h.npc else "Traits", rows=tuple(r for r in rows if r.value))


def _steps(h: TcHero) -> Rows:
    return Rows(
        title="Ability steps ruled",
        rows=tuple(Row(s.task, f"step {s.step}", note=STEPS[s.step]) for s in h.steps),
    )


def sheet_drawing(h: TcHero, campaign: CampaignState) -> Drawing:
    """A hero's scores, Exposure ladder, details, steps and problems; an NPC's traits,
    Motivation and steps."""
    parts: list[Part] = [_motivation(h)] if h.has_motivation else []
    if h.npc:
        return Drawing(
            summary=f"{h.name} (NPC): {status(h)}", parts=(*parts, _details(h), _steps(h))
        )
    scores = [Row("Reward Points", str(h.reward_points)), Row("Popularity", str(h.popularity))]
    if h.pending_task:
        scores.append(Row("Motivation roll owed", h.pending_task, (Badge("owed", "warn"),)))
    conduct = [t for t, on in (("violent", h.violent), ("secretive", h.secretive)) if on]
    if conduct:
        scores.append(Row("Ruled", " and ".join(conduct), (Badge("costs Popularity", "warn"),)))
    problems = tuple(
        Row(
            p.description,
            f"{p.scale}, session {p.session}",
            (Badge("came back", "warn"),) if p.recurred else (),
        )
        for p in h.problems
    )
    parts += [
        Rows(title="Scores", rows=tuple(scores)),
        exposure_ladder(h),
        _details(h),
        _steps(h),
        Rows(title="Community problems solved", rows=problems),
    ]
    identity = "public" if h.public_identity else "secret"
    return Drawing(
        summary=f"{h.name} (played by {h.player}); {identity} identity: {status(h)}",
        parts=tuple(parts),
    )


def turns(characters: Sequence[TcHero], campaign: CampaignState) -> tuple[TurnGroup, ...]:
    """The Motivation rolls owed, and the Exposure rolls due before the session ends."""
    groups = []
    rolls = tuple(
        Turn(h.name, f"a Motivation roll for {h.pending_task}", now=True)
        for h in characters
        if h.pending_task
    )
    if rolls:
        groups.append(TurnGroup(title="Motivation rolls owed", turns=rolls))
    session = campaign.session
    if session is not None:
        due = tuple(
            Turn(h.name, "the Exposure roll (or session off)")
            for h in characters
            if not h.npc and not h.flags_for(session).exposure_settled
        )
        if due:
            groups.append(TurnGroup(title=f"Before session {session} ends", turns=due))
    return tuple(groups)


EXPOSURE = TimelineModel()
PRESENTATION = Presentation(
    sheet_text=lambda h, _: sheet_text(h),
    sheet_drawing=sheet_drawing,
    sheet_extras=sheet_extras,
    status=status,
    highlights=HIGHLIGHTS,
    moved=moved,
    read_models=(EXPOSURE,),
    timeline=EXPOSURE,
    pages=(Page(key="timeline", label="Exposure", path="/timeline", html=_timeline_page),),
    turns=turns,
)

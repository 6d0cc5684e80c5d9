"""A Sprawl Goons table played for a while (the issue's measure: 38 rulings in one session), for
the thread's tests and the page's measures (``bench/table_page_figures.py``): Rosa referees ana
(Tanner) and ben (Katya); the session is posts and rolls, ruling 20 a Reaction roll against DS
10 ("failure by 4") that the GM amends to DS 14 as the 38th ruling. ``READ_UP_TO``: where the
players' read positions stand in the return visit the measures play (the last 8 rulings new)."""

from __future__ import annotations

from domain.events import Role
from domain.free_rolls import RollFreely
from domain.lifecycle import StartScene, StartSession
from domain.posts import WritePost
from domain.rulesets.sprawl_goons import commands as sg
from engine import DiceSpec, Engine

CAMPAIGN = "Docklands Long"
GM, ANA, BEN = "Rosa", "ana", "ben"
AMENDED = 20  # the roll the GM amends from DS 10 to DS 14
READ_UP_TO = 30  # the players' read position in the return visit


def build(engine: Engine, campaign: str = CAMPAIGN) -> None:
    """The campaign, its 37 rulings of play and the GM's amendment of ruling 20 (the 38th)."""

    def _post(who: str, text: str, character: str | None = None) -> int:
        made = WritePost(text=text, by=who, character=character)
        return engine.execute(campaign, made, actor=who).number

    def _roll(who: str, character: str, stat: str, ds: str, faces: tuple[int, ...]) -> int:
        made = sg.MakeActionRoll(character=character, stat=stat, ds=ds)
        return engine.execute(campaign, made, actor=who, dice=DiceSpec(faces=faces)).number

    members = {ANA: Role.PLAYER, BEN: Role.PLAYER}
    engine.create_campaign(campaign, "sprawl-goons", gm=GM, members=members)  # 1
    for number, (name, player, stats, items) in enumerate(
        (
            ("Tanner", ANA, (2, 1, 1, 0), ("melee:Katana", "armour:Kevlar jacket", "lazarus")),
            (
                "Katya",
                BEN,
                (0, 2, 1, 1),
                ("ranged:Hideyoki shard pistol", "armour:Kevlar jacket", "lazarus"),
            ),
        )
    ):
        morphology, reaction, cognition, equilibrium = stats
        made = sg.CreateCharacter(
            character=name,
            player=player,
            morphology=morphology,
            reaction=reaction,
            cognition=cognition,
            equilibrium=equilibrium,
            items=items,
        )
        engine.execute(campaign, made, dice=DiceSpec(seed=number + 1))  # 2, 3
    engine.execute(campaign, StartSession(physical_dice=True))  # 4
    engine.execute(campaign, StartScene(stage="The container stacks"))  # 5
    lines = [
        (GM, "Fog rolls off the water. Somewhere below, *a forklift reverses*, beeping.", None),
        (ANA, 'Tanner keeps low behind the rail. "Anyone else hear that?"', "Tanner"),
        (BEN, "Katya checks her magazine and counts the cranes.", "Katya"),
        (GM, "Two gangers in Zone Boss colours argue by the gate.", None),
        (ANA, "Tanner slides along the containers toward the gate.", "Tanner"),
        (BEN, "Katya climbs the nearest stack for a better view.", "Katya"),
        (GM, "A **spotlight** sweeps the yard, slow and bored.", None),
    ]
    for who, text, character in lines:  # 6 .. 12
        _post(who, text, character)
    _roll(ANA, "Tanner", "reaction", "10", (4, 5))  # 13: success
    _post(GM, "The light passes over Tanner without a pause.")  # 14
    _roll(BEN, "Katya", "reaction", "12", (3, 6))  # 15
    _post(BEN, "Katya is up top, flat on the cold steel.", "Katya")  # 16
    _post(GM, "One ganger lights a cigarette; the other checks his phone.")  # 17
    _post(ANA, "Tanner waits for the lighter's flare, then *moves*.", "Tanner")  # 18
    _post(GM, "Roll Reaction to cross the open ground, DS 10.")  # 19
    roll = _roll(ANA, "Tanner", "reaction", "10", (2, 3))  # 20: failure by 4
    assert AMENDED == roll
    _post(GM, "Gravel crunches. The smoker turns his head.")  # 21
    _post(BEN, "Katya lines up the shard pistol on the smoker.", "Katya")  # 22
    free = RollFreely(expression="1d6", why="does the phone ring")
    engine.execute(campaign, free, actor=GM, dice=DiceSpec(faces=(5,)))  # 23
    for who, text, character in [
        (GM, "His phone rings. He curses and answers it.", None),  # 24
        (ANA, "Tanner freezes in the shadow of a crane leg.", "Tanner"),  # 25
        (BEN, "is the DS on that roll right? felt like 10", None),  # 26
        (GM, "The caller shouts about a late shipment.", None),  # 27
        (ANA, "Tanner creeps past while he argues.", "Tanner"),  # 28
        (BEN, "Katya keeps the sights on him.", "Katya"),  # 29
        (GM, "The gate's padlock is old and *rusted*.", None),  # 30
        (ANA, "Tanner tests the padlock with the katana's pommel.", "Tanner"),  # 31
    ]:
        _post(who, text, character)
    _roll(ANA, "Tanner", "morphology", "10", (5, 4))  # 32: the lock gives
    _post(GM, "The padlock snaps. The gangers do not notice.")  # 33
    _post(BEN, "Katya slides down the ladder to join Tanner.", "Katya")  # 34
    _roll(BEN, "Katya", "reaction", "10", (6, 2))  # 35
    _post(GM, "Inside: crates stencilled with a corporate logo.")  # 36
    _post(ANA, "Tanner pries the nearest crate open.", "Tanner")  # 37
    amended = engine.amend(
        campaign, AMENDED, {"ds": "14"}, reason="the ground was lit: DS 14", actor=GM
    )
    assert 38 == amended.number


def built(db: str, *campaigns: str) -> None:
    """``build`` on the store ``db`` (a SQLite file or a PostgreSQL URL), once for each of
    ``campaigns`` (default: ``CAMPAIGN``)."""
    with Engine(db) as engine:
        for campaign in campaigns or (CAMPAIGN,):
            build(engine, campaign)

"""Posts as rulings (issue 29): who may post as whom, the rolls written in a post, --say, and the
corrections (an author's edit, a GM's strike, a dispute), read back through the thread."""

from __future__ import annotations

import json
import re

import pytest

from domain.audience import GMS
from domain.dice import Die
from domain.errors import DomainError, NotAllowed, UnknownMember
from domain.events import PostKind, PostWritten, Role
from domain.free_rolls import KeepOrDropOutOfRange, TooManyDraws, UnreadableDiceNotation
from domain.lifecycle import AddNote, StartScene, StartSession
from domain.posts import (
    PostNeedsSpeaker,
    PostSpeakersConflict,
    PrivatePostToSelf,
    TooManyPostRolls,
    WritePost,
    rolls_written,
)
from domain.rulesets import SYSTEMS
from domain.rulesets.sims.commands import CreateCharacter as SimsCharacter
from domain.rulesets.sims.commands import RollComplicated
from domain.rulesets.sims.errors import MessageToSelf, ObserverCannotMessage
from domain.table import DisputeRuling
from engine import DiceSpec, Engine
from projections.render_thread import thread_html, thread_text
from projections.texts import searchable_texts
from tests.conftest import event_count

TABLE = {"alice": Role.PLAYER, "bob": Role.PLAYER, "eve": Role.OBSERVER}
QUALITIES = (
    "Outdoorsman:Physical:Good",
    "Kung Fu:Combat:Good",
    "Gunplay:Combat:Average",
    "Hiding:Physical:Average",
    "Memory:Mental:Average",
    "Hacking:Mental:Average",
    "Charisma:Social:Average",
    "Bluffing:Social:Poor",
    "Hacker:Professional:Average",
    "Courier:Professional:Average",
)


def zion(engine: Engine) -> None:
    """A Sims campaign 'Zion' in a running scene: alice plays Neo, bob plays Cypher; eve
    watches. The session's dice are typed (physical), so players may type faces too."""
    engine.create_campaign("Zion", "sims", gm="Morpheus", members=TABLE)
    engine.execute("Zion", StartSession(physical_dice=True))
    engine.execute("Zion", StartScene(stage="The wall behind the club"))
    for name, player in (("Neo", "alice"), ("Cypher", "bob")):
        engine.execute("Zion", SimsCharacter(character=name, player=player, qualities=QUALITIES))


def post(engine: Engine, text: str, by: str = "Morpheus", **more: object) -> PostWritten:
    faces = more.pop("faces", None)
    hidden = bool(more.pop("hidden", False))
    result = engine.execute(
        "Zion",
        WritePost(text=text, by=by, **more),  # type: ignore[arg-type]
        actor=by,
        dice=DiceSpec(faces=faces) if faces is not None else None,  # type: ignore[arg-type]
        hidden=hidden,
    )
    (written,) = result.events
    assert isinstance(written, PostWritten)
    return written


def refused(engine: Engine, command: object, actor: str, error: type[DomainError]) -> None:
    before = event_count(engine)
    with pytest.raises(error):
        engine.execute("Zion", command, actor=actor)  # type: ignore[arg-type]
    assert before == event_count(engine)


# --- Who speaks -------------------------------------------------------------------------------


def test_the_gm_narrates_by_default_and_speaks_for_any_character_or_npc(engine: Engine) -> None:
    zion(engine)
    assert (PostKind.NARRATION, "") == (lambda p: (p.kind, p.speaker))(post(engine, "Rain."))
    neo = post(engine, "Neo looks up.", character="neo")
    assert (PostKind.CHARACTER, "Neo") == (neo.kind, neo.speaker)
    assert neo.character_id == engine.campaign("Zion").find("Neo").character_id
    smith = post(engine, "Mr. Anderson.", npc="Agent Smith")
    assert (PostKind.NPC, "Agent Smith") == (smith.kind, smith.speaker)


def test_a_player_speaks_as_their_own_character_and_out_of_character(engine: Engine) -> None:
    zion(engine)
    assert "Neo" == post(engine, "I climb.", by="alice").speaker  # the one she plays
    assert "Neo" == post(engine, "I climb.", by="alice", character="Neo").speaker
    assert PostKind.OOC == post(engine, "brb", by="alice", ooc=True).kind
    assert PostKind.OOC == post(engine, "great scene", by="eve", ooc=True).kind


@pytest.mark.parametrize(
    ("actor", "command", "error"),
    [
        ("alice", WritePost(text="I am Cypher", by="alice", character="Cypher"), NotAllowed),
        ("alice", WritePost(text="Mr. Anderson", by="alice", npc="Smith"), NotAllowed),
        ("alice", WritePost(text="as bob", by="bob", ooc=True), NotAllowed),
        ("eve", WritePost(text="narrating", by="eve"), NotAllowed),
        # A Sims campaign: Behind the Scenes refuses a private post first (R-PDQ-15).
        ("eve", WritePost(text="psst", by="eve", ooc=True, to=("alice",)), ObserverCannotMessage),
        (
            "Morpheus",
            WritePost(text="x", by="Morpheus", npc="Smith", ooc=True),
            PostSpeakersConflict,
        ),
        ("Morpheus", WritePost(text="x", by="Morpheus", to=("zed",)), UnknownMember),
        ("alice", WritePost(text="x", by="alice", to=("alice",)), MessageToSelf),
        ("Morpheus", WritePost(text="  ", by="Morpheus"), DomainError),
        ("Morpheus", WritePost(text="[2d7x]", by="Morpheus"), DomainError),
    ],
)
def test_refused_posts_append_nothing(
    engine: Engine, actor: str, command: WritePost, error: type[DomainError]
) -> None:
    zion(engine)
    refused(engine, command, actor, error)


def test_a_player_with_several_characters_says_which(engine: Engine) -> None:
    zion(engine)
    engine.execute("Zion", SimsCharacter(character="Trinity", player="alice", qualities=QUALITIES))
    refused(engine, WritePost(text="I climb.", by="alice"), "alice", PostNeedsSpeaker)


# --- Rolls in a post --------------------------------------------------------------------------


def test_rolls_written_in_brackets_are_rolled_where_they_stand(engine: Engine) -> None:
    zion(engine)
    text = "Neo jumps [2d6+1] and climbs [4d6kh3 for the climb]; see [the map](https://x.y)."
    written = post(engine, text, by="alice", faces=(3, 4, 6, 1, 5, 2))
    first, second = written.rolls
    assert ("2d6+1", "", 8) == (first.expression, first.why, first.total)
    assert ("4d6kh3", "the climb", 13) == (second.expression, second.why, second.total)
    assert "[2d6+1]" == text[first.start : first.end]
    assert ((6, 1, 5, 2), "[6,~1~,5,2]") == (second.faces, second.breakdown)
    (made,) = [e.ruling for e in engine.log("Zion", audience=GMS) if e.ruling.command == "post"]
    assert (Die(6, 3), Die(6, 4), Die(6, 6), Die(6, 1), Die(6, 5), Die(6, 2)) == made.dice
    shown = thread_text(engine.thread("Zion", audience=GMS))
    assert "Neo jumps [2d6+1: [3,4] + 1 = 8] and climbs [4d6kh3: [6,~1~,5,2] = 13" in shown


def test_a_roll_says_what_it_is_for_in_every_thread(engine: Engine) -> None:
    """What a roll is for reads "for ..." after its total, on the page as in the text thread,
    whether the post wrote "for" or not (issue 44: "= 6 the jump")."""
    zion(engine)
    text = "Neo [1d6 for the jump] and [1d20 the lock]"
    post(engine, text, by="alice", faces=(6, 11))
    html = thread_html(engine.thread("Zion", audience=GMS))
    read = " ".join(re.sub(r"<[^>]+>", "", html).split())
    assert "= 6 for the jump" in read
    assert "= 11 for the lock" in read
    shown = thread_text(engine.thread("Zion", audience=GMS))
    assert "[1d6: [6] = 6, for the jump]" in shown
    assert "[1d20: [11] = 11, for the lock]" in shown


def test_brackets_that_are_not_dice_stay_text() -> None:
    assert () == rolls_written("[an aside] [1 hour later] [link](https://a.b) [2d6](https://c)")
    assert ["d%", "1d20 - 1d4"] == [w.expression for w in rolls_written("[d%] [1d20 - 1d4 ok]")]


def test_adv_and_dis_in_a_post_roll_as_campaign_dice_reads_them(engine: Engine) -> None:
    """`[d20 adv]` is two d20s keeping the higher, recorded in standard notation; `advance`
    after a d20 is what the roll is for, not advantage."""
    zion(engine)
    text = "Neo [d20+2 adv for the lock] then [1d20 dis] and [d20 advance]"
    written = post(engine, text, by="alice", faces=(4, 17, 4, 17, 9))
    lock, fall, walk = written.rolls
    assert ("2d20kh1+2", "the lock", 19) == (lock.expression, lock.why, lock.total)
    assert ("2d20kl1", "", 4) == (fall.expression, fall.why, fall.total)
    assert ("d20", "advance", 9) == (walk.expression, walk.why, walk.total)
    assert "[d20+2 adv for the lock]" == text[lock.start : lock.end]
    refused(engine, WritePost(text="[2d6 adv]", by="Morpheus"), "Morpheus", DomainError)


def test_a_post_rolls_at_most_twenty_times_and_reads_its_notation_as_dice_does(
    engine: Engine,
) -> None:
    zion(engine)
    refused(engine, WritePost(text="[1d6] " * 21, by="Morpheus"), "Morpheus", TooManyPostRolls)
    refused(engine, WritePost(text="[4d6kh5]", by="Morpheus"), "Morpheus", KeepOrDropOutOfRange)
    refused(engine, WritePost(text="[1d6rr<7]", by="Morpheus"), "Morpheus", TooManyDraws)
    with pytest.raises(UnreadableDiceNotation):
        engine.execute("Zion", WritePost(text="[2d6 +]", by="Morpheus"))


def test_a_post_rolls_the_whole_notation_each_die_drawn_in_order(engine: Engine) -> None:
    """Rerolls, explosions, sets and annotations in brackets, as `campaign dice` rolls them:
    each reroll or explosion one more die of the ruling, in the order written."""
    zion(engine)
    text = "[4d6ro1 for stats] then [2d6e6] and [(1d4, 1d8)kh1 the blade] [1d10[cold] + 2 ice]"
    faces = (1, 3, 4, 5, 2, 6, 2, 3, 3, 7, 9)
    written = post(engine, text, by="alice", faces=faces)
    stats, boom, blade, ice = written.rolls
    assert ("4d6ro1", "stats", "[~1~,2,3,4,5]", 14) == (
        stats.expression,
        stats.why,
        stats.breakdown,
        stats.total,
    )
    assert ((6, 2, 3), "[6!,2,3]", 11) == (boom.faces, boom.breakdown, boom.total)
    assert ("(1d4, 1d8)kh1", "the blade", "(~[3]~, [7])", 7) == (
        blade.expression,
        blade.why,
        blade.breakdown,
        blade.total,
    )
    assert ("1d10[cold] + 2", "ice", "[9] [cold] + 2", 11) == (
        ice.expression,
        ice.why,
        ice.breakdown,
        ice.total,
    )
    (made,) = [e.ruling for e in engine.log("Zion", audience=GMS) if e.ruling.command == "post"]
    assert faces == tuple(d.face for d in made.dice)
    assert (6, 6, 6, 6, 6, 6, 6, 6, 4, 8, 10) == tuple(d.sides for d in made.dice)


def test_a_posts_rolls_draw_at_most_two_thousand_dice_together(engine: Engine) -> None:
    """Each roll draws at most a thousand, and all of a post's rolls two thousand: twenty
    rolls of a hundred d2 exploding on 2 draw more, and the post is refused."""
    zion(engine)
    with pytest.raises(TooManyDraws) as refusal:
        engine.execute("Zion", WritePost(text="[100d2e2] " * 20, by="Morpheus"))
    assert "the post's rolls would draw more than 2000 dice" in refusal.value.reason


# --- --say --------------------------------------------------------------------------------------


def test_say_narrates_the_ruling_in_its_header(engine: Engine) -> None:
    zion(engine)
    roll = RollComplicated(
        character="Neo", qualities=("Outdoorsman",), difficulty="Good", task="the rail"
    )
    result = engine.execute("Zion", roll, dice=DiceSpec(faces=(3, 5)), say="Neo vaults the rail")
    made = engine.log("Zion", audience=GMS)[-1].ruling
    assert result.number == made.number
    assert "Neo vaults the rail" == json.loads(made.params)["say"]
    (entry,) = [e for e in engine.thread("Zion", audience=GMS).entries if e.ruling == made.number]
    assert "Neo vaults the rail" == entry.say
    assert any("the rail" in line for line in entry.lines)


# --- Corrections ----------------------------------------------------------------------------------


def test_an_author_edits_their_own_post_and_the_old_text_is_kept(engine: Engine) -> None:
    zion(engine)
    post(engine, "I clmb. [1d6]", by="alice", faces=(4,))
    number = engine.campaign("Zion").rulings
    engine.amend("Zion", number, {"text": "I climb. [1d6]"}, reason="typo", actor="alice")
    (entry,) = [e for e in engine.thread("Zion", audience=GMS).entries if e.ruling == number]
    assert entry.post is not None
    assert "I climb. [1d6]" == entry.post.text
    assert 4 == entry.post.rolls[0].total  # the same die
    assert [("alice", "typo", "I clmb. [1d6]")] == [(x.actor, x.reason, x.was) for x in entry.edits]


def test_only_the_author_edits_a_post_and_only_its_text(engine: Engine) -> None:
    zion(engine)
    post(engine, "I climb.", by="alice")
    number = engine.campaign("Zion").rulings
    for actor, changes in (("bob", {"text": "no"}), ("alice", {"ooc": "true"})):
        before = event_count(engine)
        with pytest.raises(NotAllowed):
            engine.amend("Zion", number, changes, reason="mine", actor=actor)
        assert before == event_count(engine)
    roll = RollComplicated(character="Neo", qualities=("Outdoorsman",), difficulty="Good", task="x")
    engine.execute("Zion", roll, dice=DiceSpec(faces=(3, 5)))
    with pytest.raises(NotAllowed):  # a roll is the GM's to amend, even the player's own
        engine.amend("Zion", number + 1, {"text": "x"}, reason="mine", actor="alice")
    engine.amend("Zion", number, {"text": "I leap."}, reason="GM edit")  # the GM may


def test_the_gm_strikes_a_post_and_a_player_disputes_one(engine: Engine) -> None:
    zion(engine)
    post(engine, "Cypher is a traitor!", by="alice")
    number = engine.campaign("Zion").rulings
    engine.execute("Zion", DisputeRuling(ruling=number, reason="rude", by="bob"), actor="bob")
    engine.undo("Zion", number, reason="out of line")
    (entry,) = [e for e in engine.thread("Zion", audience=GMS).entries if e.ruling == number]
    assert entry.struck is not None
    assert ("Morpheus", "out of line") == (entry.struck.actor, entry.struck.reason)
    assert "struck by" in thread_text(engine.thread("Zion", audience=GMS))


def test_undoing_a_roll_never_touches_a_later_post(engine: Engine) -> None:
    """A post reads no state a roll changes: the roll is undone alone, the post stands."""
    zion(engine)
    roll = RollComplicated(character="Neo", qualities=("Outdoorsman",), difficulty="Good", task="x")
    rolled = engine.execute("Zion", roll, dice=DiceSpec(faces=(3, 5))).number
    post(engine, "Neo is up the wall [1d6]", by="alice", faces=(2,))
    posted = engine.campaign("Zion").rulings
    engine.undo("Zion", rolled, reason="wrong wall")
    log = {e.ruling.number: e for e in engine.log("Zion", audience=GMS)}
    assert ("undone", "") == (log[rolled].status, log[posted].status)


# --- Every system, and the texts a search finds -----------------------------------------------


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_system_posts(engine: Engine, system: str) -> None:
    engine.create_campaign("Lab", system, gm="Rosa", members={"ana": Role.PLAYER})
    engine.execute("Lab", StartSession())
    engine.execute(
        "Lab", WritePost(text="A door creaks. [1d6]", by="Rosa"), dice=DiceSpec(faces=(6,))
    )
    engine.execute("Lab", WritePost(text="who's there?", by="ana", ooc=True), actor="ana")
    entries = [e for e in engine.thread("Lab", audience=GMS).entries if e.post is not None]
    assert ["A door creaks. [1d6]", "who's there?"] == [e.post.text for e in entries if e.post]


@pytest.mark.parametrize("system", sorted(set(SYSTEMS) - {"sims"}))  # the Sims' is their own
def test_the_shared_refusals_of_a_private_post(engine: Engine, system: str) -> None:
    """An observer posts to the whole table (NOT_ALLOWED) and nobody writes to themself; a
    private post may go to several members, observers among them."""
    seats = {"ana": Role.PLAYER, "bob": Role.PLAYER, "eve": Role.OBSERVER}
    engine.create_campaign("Lab", system, gm="Rosa", members=seats)
    for actor, command, error in (
        ("eve", WritePost(text="psst", by="eve", ooc=True, to=("ana",)), NotAllowed),
        ("ana", WritePost(text="x", by="ana", ooc=True, to=("bob", "ana")), PrivatePostToSelf),
    ):
        before = event_count(engine)
        with pytest.raises(error):
            engine.execute("Lab", command, actor=actor)
        assert before == event_count(engine)
    result = engine.execute("Lab", WritePost(text="all of you", by="Rosa", to=("ana", "eve")))
    assert [("ana", "eve")] == [e.to for e in result.events if isinstance(e, PostWritten)]


def test_the_searchable_texts_of_rulings(engine: Engine) -> None:
    zion(engine)
    post(engine, "I climb [1d6]", by="alice", faces=(3,))
    engine.execute("Zion", AddNote(text="the wall is wet", gm_only=True), say="Rain.")
    number = engine.campaign("Zion").rulings
    engine.undo("Zion", number, reason="no rain tonight")
    found = [
        (t.kind, t.speaker, t.character, t.text, t.gm_only)
        for entry in engine.log("Zion", audience=GMS)
        for t in searchable_texts(entry.header.actor, entry.ruling, [r.event for r in entry.events])
    ]
    assert ("post", "Neo", "Neo", "I climb [1d6: [3] = 3]", False) in found
    assert ("say", "Morpheus", "", "Rain.", False) in found
    assert ("note", "Morpheus", "", "the wall is wet", True) in found
    assert ("undo", "Morpheus", "", "no rain tonight", False) in found


def test_the_recap_tells_what_happened(engine: Engine) -> None:
    """The story: the GM's narration, the in-character posts and the narrated rulings with what
    they did; not the out-of-character, private or struck posts."""
    zion(engine)
    post(engine, "The wall is slick with rain.")
    post(engine, "I climb. [1d6]", by="alice", faces=(5,))
    roll = RollComplicated(character="Neo", qualities=("Outdoorsman",), difficulty="Good", task="x")
    engine.execute("Zion", roll, dice=DiceSpec(faces=(3, 5)), say="Neo vaults the rail")
    post(engine, "brb", by="bob", ooc=True)
    post(engine, "psst", by="bob", to=("alice",))
    post(engine, "Agent Smith smiles.", npc="Smith")
    engine.undo("Zion", engine.campaign("Zion").rulings, reason="too early")
    story = engine.recap("Zion", audience=GMS)["story"]
    assert [
        ("narration", "GM Morpheus", "The wall is slick with rain."),
        ("character", "Neo (alice)", "I climb. [1d6: [5] = 5]"),
        ("say", "Morpheus", "Neo vaults the rail"),
    ] == [(s["voice"], s["speaker"], s["text"]) for s in story]
    assert "the wall" not in story[2]["beat"]  # the roll's task is "x"
    assert "success" in story[2]["beat"]
    from projections.render_md import recap_md

    assert "## What happened" in recap_md(engine.recap("Zion", audience=GMS))


def test_posts_are_chained_sealed_verified_exported_and_imported(sqlite_engine: Engine) -> None:
    """A session of posts (an edited one, a struck one, a private one) verifies, seals, and goes
    through an export into another store whole: the same thread, and still correctable."""
    from domain.lifecycle import EndScene, EndSession

    engine = sqlite_engine
    zion(engine)
    post(engine, "Rain. [1d6]", faces=(2,))
    post(engine, "I clmb", by="alice")
    engine.amend("Zion", engine.campaign("Zion").rulings, {"text": "I climb"}, reason="typo")
    post(engine, "psst", by="bob", to=("alice",))
    post(engine, "oops", by="bob", ooc=True)
    engine.undo("Zion", engine.campaign("Zion").rulings, reason="wrong thread")
    engine.execute("Zion", EndScene())
    engine.execute("Zion", EndSession(), say="Dawn breaks over Zion.")
    report = engine.verify("Zion")
    assert report.intact, report
    assert report.seals
    exported = list(engine.export("Zion", audience=GMS))
    assert any("PostWritten" in line for line in exported)
    with Engine() as other:
        other.import_campaign(exported)
        assert other.verify("Zion").intact
        assert engine.thread("Zion", 1, audience=GMS) == other.thread("Zion", 1, audience=GMS)
        other.undo("Zion", 6, reason="struck after the import")
        assert next(
            e for e in other.thread("Zion", 1, audience=GMS).entries if e.ruling == 6
        ).struck


def test_a_post_and_a_narration_have_the_one_text_limit(engine: Engine) -> None:
    from domain.errors import TextTooLong
    from domain.limits import MAX_TEXT

    zion(engine)
    refused(engine, WritePost(text="x" * (MAX_TEXT + 1), by="Morpheus"), "Morpheus", TextTooLong)
    before = event_count(engine)
    with pytest.raises(TextTooLong):
        engine.execute("Zion", AddNote(text="n"), say="s" * (MAX_TEXT + 1))
    assert before == event_count(engine)
    post(engine, "x" * MAX_TEXT)


def test_an_edit_that_changes_a_rolls_expression_after_seeing_the_die_is_refused(
    engine: Engine,
) -> None:
    """The attack: alice rolls [1d20+2] from the session's committed dice, sees the die, and
    edits the post to [1d20+15] (the same die, a higher total). Refused, nothing appended, the
    post as it was rolled; so is the GM's edit of it."""
    from domain.posts import PostRollChanged

    zion(engine)
    rolled = post(engine, "I jump the gap [1d20+2]", by="alice")  # committed dice
    number = engine.campaign("Zion").rulings
    die = rolled.rolls[0].faces
    for actor in ("alice", "Morpheus"):
        before = event_count(engine)
        with pytest.raises(PostRollChanged) as refusal:
            engine.amend(
                "Zion", number, {"text": "I jump the gap [1d20+15]"}, reason="typo", actor=actor
            )
        assert before == event_count(engine)
        assert "POST_ROLL_CHANGED" == refusal.value.code
        assert "[1d20+2] as [1d20+15]" in refusal.value.reason
    (entry,) = [e for e in engine.thread("Zion", audience=GMS).entries if e.ruling == number]
    assert entry.post is not None
    assert ("I jump the gap [1d20+2]", ()) == (entry.post.text, entry.edits)
    assert rolled.rolls == entry.post.rolls
    assert die == entry.post.rolls[0].faces


@pytest.mark.parametrize(
    ("edited", "change"),
    [
        ("I jump [1d20+2 for the gap] [1d6]", "adds [1d6]"),  # a second try
        ("I jump", "removes [1d20+2 for the gap]"),  # a bad roll taken back
        ("I jump [1d20+2 for the wall]", "as [1d20+2 for the wall]"),  # another purpose
        ("I jump [1d20 + 2 for the gap]", "as [1d20 + 2 for the gap]"),  # not as written
        ("I jump [1d20+2 for the gap](https://x.org)", "removes"),  # a link now, not a roll
        ("I jump [1d20-2 for the gap]", "as [1d20-2 for the gap]"),  # even to a lower total
    ],
)
def test_an_edit_keeps_every_roll_exactly_as_written(
    engine: Engine, edited: str, change: str
) -> None:
    from domain.posts import PostRollChanged

    zion(engine)
    post(engine, "I jump [1d20+2 for the gap]", by="alice", faces=(9,))
    number = engine.campaign("Zion").rulings
    before = event_count(engine)
    with pytest.raises(PostRollChanged) as refusal:
        engine.amend("Zion", number, {"text": edited}, reason="edit", actor="alice")
    assert before == event_count(engine)
    assert change in refusal.value.reason


def test_an_edit_may_change_every_word_around_the_rolls(engine: Engine) -> None:
    """Words before, between and after the rolls, and brackets that are not rolls, are the
    author's to change; the rolls keep their dice."""
    zion(engine)
    written = post(engine, "I jmp [1d20+2 for the gap] and [2d6]", by="alice", faces=(9, 3, 4))
    number = engine.campaign("Zion").rulings
    edited = "*I leap* [1d20+2 for the gap], then [an aside] I land [2d6]!"
    engine.amend("Zion", number, {"text": edited}, reason="words", actor="alice")
    (entry,) = [e for e in engine.thread("Zion", audience=GMS).entries if e.ruling == number]
    assert entry.post is not None
    assert edited == entry.post.text
    assert [r.total for r in written.rolls] == [r.total for r in entry.post.rolls] == [11, 7]
    assert [x.was for x in entry.edits] == ["I jmp [1d20+2 for the gap] and [2d6]"]

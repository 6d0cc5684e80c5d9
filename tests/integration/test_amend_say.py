"""Correcting a ruling's narration (issue 29): ``amend N --set say=TEXT`` is an amendment like any
other, a new ruling that decides N again as it stands and keeps the new narration in its header,
the old one staying readable in the trail. Every reader shows the new one (log, thread, recap's
story, replay), marks it edited, and a search finds it by its new words (under the amendment) and
by its old ones (under the ruling, marked amended), as a post's edited text. Who may: the GMs
and the member who made the ruling, as a post's text is its author's."""

from __future__ import annotations

import pytest

from domain.audience import GMS, Member, of_actor
from domain.errors import EmptyText, NotAllowed, TextTooLong, UnknownParameter
from domain.events import Role
from domain.free_rolls import RollFreely
from domain.lifecycle import StartScene, StartSession
from domain.limits import MAX_TEXT
from domain.posts import PostSaysItsText, WritePost
from domain.registry import verbs
from domain.rulesets import SYSTEMS
from domain.rulesets.sims.behind_the_scenes import SendPrivateMessage
from domain.said import SAY, said
from engine import DiceSpec, Engine
from projections.render_thread import thread_md
from projections.thread import Edit
from tests.conftest import event_count
from tests.golden.test_sims import NAME
from tests.golden.test_sims_rulings import GM
from tests.golden.test_sims_rulings import table as sims_table
from tests.integration.oracle import CAMPAIGN, play
from tests.integration.test_redecide_code_green import ASSIST, ROLL, STORY, SYSTEM

SAID = "The guard fumbls for his torch."
FIXED = "The guard fumbles for his torch."


def lab(engine: Engine) -> int:
    """A session of 'Lab' (Rosa the GM, ana and bob players, eve watching) and a free roll Rosa
    narrated; its number."""
    seats = {"ana": Role.PLAYER, "bob": Role.PLAYER, "eve": Role.OBSERVER}
    engine.create_campaign("Lab", "code-green", gm="Rosa", members=seats)
    engine.execute("Lab", StartSession(physical_dice=True))
    engine.execute("Lab", StartScene(stage="The gate"))
    roll = RollFreely(expression="1d6", why="the guard's nerve")
    return engine.execute("Lab", roll, dice=DiceSpec(faces=(2,)), say=SAID).number


def test_the_gm_corrects_a_narration(engine: Engine) -> None:
    """The new narration reads everywhere; the ruling's header keeps the old one and the
    amendment's the new; the roll stands as it was rolled."""
    number = lab(engine)
    result = engine.amend("Lab", number, {SAY: f"  {FIXED} "}, reason="typo")
    (entry,) = engine.log("Lab", rulings=(number,), audience=GMS)
    (amendment,) = entry.amendments
    assert (SAID, FIXED, FIXED) == (said(entry.ruling), amendment.say, entry.say)
    assert [e.event for e in entry.events] == [e.event for e in amendment.events]
    (correction,) = engine.log("Lab", rulings=(result.number,), audience=GMS)
    assert FIXED == said(correction.ruling)
    thread = engine.thread("Lab", audience=GMS)
    (shown,) = [e for e in thread.entries if e.ruling == number]
    edit = Edit(by=result.number, actor="Rosa", reason="typo", was=SAID)
    assert (FIXED, (edit,)) == (shown.say, shown.edits)
    assert f"_edited by #{result.number} (Rosa): typo_" in thread_md(thread)
    (told,) = [s for s in engine.recap("Lab", audience=GMS)["story"] if s["ruling"] == number]
    assert FIXED == told["text"]
    replayed = [
        n.logged.say
        for n in engine.replay("Lab", 1, audience=GMS)
        if n.logged.ruling.number == number
    ]
    assert [FIXED] == replayed


def test_a_search_finds_the_new_words_and_the_old(engine: Engine) -> None:
    """The new words under the amendment; the old under the ruling, marked amended."""
    number = lab(engine)
    result = engine.amend("Lab", number, {SAY: FIXED}, reason="typo")
    found = engine.search("Lab", "fumbles", audience=GMS).found
    assert [(result.number, FIXED, "")] == [(f.ruling, f.text, f.status) for f in found]
    found = engine.search("Lab", "fumbls", audience=GMS).found
    assert [(number, SAID, "amended")] == [(f.ruling, f.text, f.status) for f in found]


def test_a_ruling_said_nothing_gains_a_narration(engine: Engine) -> None:
    """A ruling recorded without --say may be given one; the edit says it had none."""
    lab(engine)
    number = engine.execute("Lab", RollFreely(expression="1d6", why="x"), dice=DiceSpec(faces=(1,)))
    result = engine.amend("Lab", number.number, {SAY: "The lock holds."}, reason="said aloud")
    (shown,) = [e for e in engine.thread("Lab", audience=GMS).entries if e.ruling == number.number]
    assert ("The lock holds.", ("",)) == (shown.say, tuple(x.was for x in shown.edits))
    assert result.number > number.number


def test_the_author_corrects_their_own_narration_and_only_theirs(engine: Engine) -> None:
    """ana made the roll: she may correct what she said, not its why (the GM's) nor bob's
    narration, and bob may not correct hers; each refusal appends nothing."""
    lab(engine)
    roll = RollFreely(expression="1d6", why="luck")
    mine = engine.execute("Lab", roll, actor="ana", dice=DiceSpec(faces=(3,)), say="I cros").number
    theirs = engine.execute("Lab", roll, actor="bob", dice=DiceSpec(faces=(4,)), say="Me").number
    before = event_count(engine)
    for who, ruling, changes in (
        ("bob", mine, {SAY: "x"}),
        ("ana", theirs, {SAY: "x"}),
        ("ana", mine, {SAY: "x", "why": "skill"}),
        ("eve", mine, {SAY: "x"}),
    ):
        with pytest.raises(NotAllowed):
            engine.amend("Lab", ruling, changes, reason="mine", actor=who)
    assert before == event_count(engine)
    engine.amend("Lab", mine, {SAY: "I cross my fingers."}, reason="typo", actor="ana")
    engine.amend("Lab", theirs, {SAY: "Me too.", "why": "pluck"}, reason="both", actor="Rosa")
    says = {e.ruling: e.say for e in engine.thread("Lab", audience=GMS).entries}
    assert ("I cross my fingers.", "Me too.") == (says[mine], says[theirs])


def test_an_empty_or_overlong_narration_is_refused(engine: Engine) -> None:
    """A narration is corrected to words, within the text limit; nothing is appended."""
    number = lab(engine)
    before = event_count(engine)
    for text, error in (("  ", EmptyText), ("x" * (MAX_TEXT + 1), TextTooLong)):
        with pytest.raises(error):
            engine.amend("Lab", number, {SAY: text}, reason="typo")
    assert before == event_count(engine)


def test_a_hidden_rulings_narration_stays_hidden(engine: Engine) -> None:
    """The amendment of a hidden roll is the GMs' as the roll is: no player reads or finds the
    new narration, nor the old."""
    lab(engine)
    secret = RollFreely(expression="1d6", why="the ambush")
    number = engine.execute("Lab", secret, dice=DiceSpec(faces=(6,)), hidden=True, say="Shh")
    engine.amend("Lab", number.number, {SAY: "Shadows move."}, reason="clearer")
    for reader in ("ana", "eve"):
        assert "Shadows" not in thread_md(engine.thread("Lab", audience=of_actor(reader)))
        assert () == engine.search("Lab", "shadows", audience=of_actor(reader)).found
        assert "Shadows" not in str(engine.recap("Lab", audience=of_actor(reader)))
    assert "Shadows move." in thread_md(engine.thread("Lab", audience=Member("Rosa")))


def test_a_post_is_corrected_by_its_text(engine: Engine) -> None:
    """A post's text is what it says: ``say`` is refused for one, nothing appended."""
    lab(engine)
    number = engine.execute("Lab", WritePost(text="psst", by="Rosa")).number
    before = event_count(engine)
    with pytest.raises(PostSaysItsText):
        engine.amend("Lab", number, {SAY: "Rosa leans in."}, reason="said")
    assert before == event_count(engine)


def test_a_private_rulings_narration_stays_private(engine: Engine) -> None:
    """The Sims: a message recorded by the ``message`` verb with a narration (a private ruling)
    has it corrected; the new narration stays with the message's readers, out of the story."""
    sims_table(engine)
    message = SendPrivateMessage(to="bob", body="psst", by=GM, character="Smith")
    number = engine.execute(NAME, message, say="Smith leans in.").number
    amended = engine.amend(NAME, number, {SAY: "Smith leans closer."}, reason="said").number
    (entry,) = engine.log(NAME, rulings=(number,), audience=Member("bob"))
    assert "Smith leans closer." == entry.say
    assert [] == engine.log(NAME, rulings=(number, amended), audience=Member("alice"))
    assert [amended] == [
        f.ruling for f in engine.search(NAME, "closer", audience=Member("bob")).found
    ]
    assert () == engine.search(NAME, "closer", audience=Member("alice")).found
    assert "Smith leans" not in str(engine.recap(NAME, audience=of_actor(GM))["story"])


def test_a_ruling_decided_again_keeps_its_corrected_narration(engine: Engine) -> None:
    """Code Green: the roll's narration is corrected, then the assist before it is undone and
    the roll re-decided with its own dice: it reads as corrected still, in the log, the thread
    and the recap's story."""
    numbers = play(engine, SYSTEM, STORY)
    roll = numbers[ROLL]
    engine.amend(CAMPAIGN, roll, {SAY: "Alice leaps."}, reason="narrated")
    engine.undo(CAMPAIGN, numbers[ASSIST], reason="no help", redecide=True)
    (entry,) = engine.log(CAMPAIGN, rulings=(roll,), audience=GMS)
    assert (["amended", "re-decided"], "Alice leaps.") == (
        [a.kind for a in entry.amendments],
        entry.say,
    )
    (shown,) = [e for e in engine.thread(CAMPAIGN, audience=GMS).entries if e.ruling == roll]
    assert ("Alice leaps.", 1) == (shown.say, len(shown.edits))
    (told,) = [s for s in engine.recap(CAMPAIGN, audience=GMS)["story"] if s["ruling"] == roll]
    assert "Alice leaps." == told["text"]


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_say_is_no_parameter_of_any_verb(system: str) -> None:
    """``--set say=`` always means the narration: no command has a parameter of that name."""
    assert [] == [v for v in verbs(system).values() if SAY in {p.name for p in v.parameters}]


def test_say_is_the_only_key_besides_the_parameters(engine: Engine) -> None:
    """Any other key the command does not take is refused naming the ones it does."""
    number = lab(engine)
    with pytest.raises(UnknownParameter):
        engine.amend("Lab", number, {"narration": "x"}, reason="typo")

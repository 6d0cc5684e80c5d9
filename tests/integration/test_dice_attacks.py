"""The attacks on committed dice that a hostile review found, each written as the attacker
would: read what the attacker can read (the GM reads his own store's secrets), grind offline with
the real derivation (``engine.dice.committed``), act through the engine, then look at what the
players' own tools say (``verify``, and ``verify-dice`` on the export). Each attack fails, or is
listed where a player looks."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from domain.audience import GMS, Member
from domain.dice import Provenance
from domain.errors import (
    CommittedSecretMissing,
    DiceNotFromCommitment,
    EntropyAlreadyCounted,
    EntropyNotAPlayer,
    EntropySignatureInvalid,
    EntropySignatureNotCanonical,
    GmEntropyRefused,
)
from domain.events import HiddenDiceRevealed, Role, RulingMade
from domain.free_rolls import RollFreely
from domain.lifecycle import AddEntropy, EndScene, EndSession, StartSession
from domain.rulesets.sprawl_goons.commands import MakeActionRoll
from domain.signatures import entropy_message, signature_holds
from domain.table import AddMember, RegisterKey, RevealRuling
from engine import DiceSpec, Engine
from engine.audit.report import DiceCheck
from engine.dice.committed import key, lane, leaf_key, mixed_signed, replay
from engine.transfer.player_check import verify_export
from tests.integration.players import Player, close_entropy
from tests.integration.test_commit_reveal import refused, rewrite_campaign_stream, tanner

GM = "Rosa"


@pytest.fixture
def table(stored_engine: Engine) -> tuple[Engine, Player, Player]:
    """A Sprawl Goons table, on SQLite and on PostgreSQL: the GM Rosa, players ana (Tanner) and
    bea, keys on both seats, a session started and a scene running."""
    engine = stored_engine
    engine.create_campaign("Lab", "sprawl-goons", gm=GM)
    ana, bea = Player("ana").seated(engine), Player("bea").seated(engine)
    engine.execute("Lab", StartSession())
    close_entropy(engine)  # whoever adds words adds them before the first roll
    tanner(engine)
    return engine, ana, bea


def secrets(engine: Engine, session: int = 1) -> tuple[bytes, bytes]:
    """What the GM reads of his own store: the session's roll seed and hidden seed."""
    kept = engine.dice_secrets.get(engine.campaign("Lab").id, session)
    assert kept is not None
    return kept[0][:32], kept[0][32:]


def add(engine: Engine, player: Player, words: str) -> None:
    player.adds(engine, words)


def tanner_rolls(engine: Engine, **options: Any) -> RulingMade:
    command = MakeActionRoll(character="Tanner", stat="reaction", ds="10")
    result = engine.execute("Lab", command, actor=options.pop("actor", "ana"), **options)
    return next(r.event for r in result.records if isinstance(r.event, RulingMade))


def free_roll(engine: Engine, expression: str = "2d6", **options: Any) -> RulingMade:
    command = RollFreely(expression=expression, why="to see")
    result = engine.execute("Lab", command, **options)
    return next(r.event for r in result.records if isinstance(r.event, RulingMade))


def ended(engine: Engine) -> None:
    if engine.campaign("Lab").scene is not None:
        engine.execute("Lab", EndScene())
    engine.execute("Lab", EndSession())


def players_check(engine: Engine, session: int = 1) -> DiceCheck:
    """What a player's `verify-dice` says of the session, from the export alone."""
    _, report = verify_export(list(engine.export("Lab", audience=GMS)))
    return next(d for d in report.dice if d.session == session)


def faces(made: RulingMade) -> tuple[int, ...]:
    return tuple(d.face for d in made.dice)


# --- GM entropy ---------------------------------------------------------------------------------


def test_the_gm_cannot_add_ground_words_as_himself(table: Any) -> None:
    engine, _ana, _ = table
    refused(engine, lambda: engine.execute("Lab", AddEntropy(words="x", by=GM)), EntropyNotAPlayer)
    ended(engine)
    words = StartSession(entropy="x")
    refused(engine, lambda: engine.execute("Lab", words), GmEntropyRefused)


def test_the_gm_cannot_add_ground_words_in_a_players_name(table: Any) -> None:
    """Ground offline until Tanner's first roll is what the GM wants, then given as ana (whose
    seat has a key): without her signature, refused."""
    engine, _ana, _ = table
    seed, _ = secrets(engine)
    wanted = next(
        f"try {n}"
        for n in range(1000)
        if replay(
            key(seed, mixed_signed([("ana", f"try {n}", "0" * 128)])), 0, (6, 6), lane("ana")
        )[0]
        == (6, 6)
    )
    forged = AddEntropy(words=wanted, by="ana", signature="0" * 128)
    refused(engine, lambda: engine.execute("Lab", forged, actor="ana"), EntropySignatureInvalid)
    unsigned = AddEntropy(words=wanted, by="ana")
    refused(engine, lambda: engine.execute("Lab", unsigned, actor="ana"), EntropySignatureInvalid)


def test_unsigned_words_of_a_player_without_a_key_do_not_count_and_are_listed(
    tmp_path: Path, frozen: None
) -> None:
    """A seat without a key: the GM's ground words are recorded but never mixed in, so the roll
    is not the one ground for; the players' check lists them and says no signed entropy counted."""
    with Engine(str(tmp_path / "campaign.db")) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        engine.execute("Lab", AddMember(member="ana", role=Role.PLAYER))
        engine.execute("Lab", StartSession())
        seed, _ = secrets(engine)
        engine.execute("Lab", AddEntropy(words="ground words", by="ana"), actor="ana")
        made = free_roll(engine, "2d6")
        assert faces(made) == replay(key(seed, ""), 0, (6, 6), lane(GM))[0]  # not mixed in
        ended(engine)
        check = players_check(engine)
    assert not check.problems
    assert any("'ground words'" in w and "unsigned: not counted" in w for w in check.warnings)
    assert any("no signed entropy of a player was counted" in w for w in check.warnings)


def test_a_players_signed_entropy_is_counted_and_she_sees_it(table: Any) -> None:
    engine, ana, bea = table
    add(engine, ana, "pancakes at midnight")
    add(engine, bea, "a red umbrella")
    made = tanner_rolls(engine)
    seed, _ = secrets(engine)
    commitment = engine.campaign("Lab").commitment or ""
    counted = [
        ("ana", "pancakes at midnight", ana.sign(commitment, "pancakes at midnight")),
        ("bea", "a red umbrella", bea.sign(commitment, "a red umbrella")),
    ]
    sides = tuple(d.sides for d in made.dice)
    assert faces(made) == replay(key(seed, mixed_signed(counted)), 0, sides, lane("ana"))[0]
    ended(engine)
    check = players_check(engine)
    assert not check.problems
    assert check.revealed
    assert ("ana", "pancakes at midnight", ana.public) in check.counted


# --- One signature, one text; one counted contribution a player --------------------------------


def recased(signature: str, mask: int) -> str:
    """``signature`` with the hex letters picked by ``mask``'s bits in upper case: the same 64
    bytes to ``bytes.fromhex``, another text."""
    letters = [i for i, c in enumerate(signature) if c.isalpha()]
    chars = list(signature)
    for bit, at in enumerate(letters):
        if mask >> bit & 1:
            chars[at] = chars[at].upper()
    return "".join(chars)


def test_the_gm_cannot_grind_the_letter_case_of_a_genuine_signature(table: Any) -> None:
    """ana sends the GM her genuine signature of "pancakes". Offline, with his own seed, he
    grinds the letter case of it until Tanner's first roll is a double six (each spelling is
    another mix, and her check would still say "signed, counted"), then records that spelling
    in her name: refused, nothing appended. Only the canonical text is taken, and the roll is
    the one her words alone decide."""
    engine, ana, _ = table
    seed, _ = secrets(engine)
    commitment = engine.campaign("Lab").commitment or ""
    genuine = ana.sign(commitment, "pancakes")

    def tanners_first(signature: str) -> tuple[int, ...]:
        mix = mixed_signed([("ana", "pancakes", signature)])
        return replay(key(seed, mix), 0, (6, 6), lane("ana"))[0]

    ground = next(
        recased(genuine, mask)
        for mask in range(1, 100_000)
        if tanners_first(recased(genuine, mask)) == (6, 6)
    )
    message = entropy_message(commitment, "ana", "pancakes")
    assert signature_holds(ana.public, message, ground)  # the bytes are hers
    for spelling in (ground, genuine.upper(), f" {genuine}", genuine[:64] + " " + genuine[64:]):
        recorded = AddEntropy(words="pancakes", by="ana", signature=spelling)
        error = refused(
            engine, lambda c=recorded: engine.execute("Lab", c), EntropySignatureNotCanonical
        )
        assert "ENTROPY_SIGNATURE_NOT_CANONICAL" == error.code
        assert "128 lowercase hex digits" in error.reason
    engine.execute("Lab", AddEntropy(words="pancakes", by="ana", signature=genuine))
    assert (("ana", "pancakes", genuine),) == engine.campaign("Lab").signed
    made = tanner_rolls(engine)
    assert faces(made) == tanners_first(genuine)
    ended(engine)
    check = players_check(engine)
    assert not check.problems
    assert (("ana", "pancakes", ana.public),) == check.counted


WHITESPACE = " \t\n\r\x0b\x0c"  # what bytes.fromhex skips


@st.composite
def respelt(draw: st.DrawFn, canonical: str) -> str:
    """Another text of the signature ``canonical`` (128 lowercase hex digits) that
    ``bytes.fromhex`` reads as the same 64 bytes: any digits in upper case, whitespace before,
    between and after its pairs."""
    upper = draw(st.sets(st.integers(0, len(canonical) - 1)))
    gaps = draw(
        st.dictionaries(
            st.integers(0, len(canonical) // 2), st.text(WHITESPACE, min_size=1, max_size=3)
        )
    )
    chars = [c.upper() if i in upper else c for i, c in enumerate(canonical)]
    pairs = ["".join(chars[i : i + 2]) for i in range(0, len(chars), 2)]
    return "".join(gaps.get(i, "") + p for i, p in enumerate([*pairs, ""]))


def test_every_other_spelling_of_a_genuine_signature_is_refused(frozen: None) -> None:
    """Whatever re-encoding of ana's genuine signature is sent in her name, only the canonical
    text is recorded: every other is refused and appends nothing."""
    with Engine() as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        ana = Player("ana").seated(engine)
        engine.execute("Lab", StartSession())
        commitment = engine.campaign("Lab").commitment or ""
        genuine = ana.sign(commitment, "pancakes")

        @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(spelling=respelt(genuine))
        def spelt(spelling: str) -> None:
            assume(spelling != genuine)
            assert bytes.fromhex(spelling) == bytes.fromhex(genuine)  # the same signature
            command = AddEntropy(words="pancakes", by="ana", signature=spelling)
            refused(engine, lambda: engine.execute("Lab", command), EntropySignatureNotCanonical)

        spelt()
        add(engine, ana, "pancakes")  # as signed, it counts
        assert (("ana", "pancakes", genuine),) == engine.campaign("Lab").signed


def test_the_same_signed_words_are_counted_once(table: Any) -> None:
    """ana's one signature recorded nine times would be nine contributions, each "signed,
    counted": a choice of ten mixes. The second is refused, as are other signed words of
    hers; bea's still count."""
    engine, ana, bea = table
    add(engine, ana, "pancakes")
    commitment = engine.campaign("Lab").commitment or ""
    again = AddEntropy(words="pancakes", by="ana", signature=ana.sign(commitment, "pancakes"))
    other = AddEntropy(words="waffles", by="ana", signature=ana.sign(commitment, "waffles"))
    for command, actor in ((again, GM), (again, "ana"), (other, "ana")):
        error = refused(
            engine,
            lambda c=command, a=actor: engine.execute("Lab", c, actor=a),
            EntropyAlreadyCounted,
        )
        assert "ENTROPY_ALREADY_COUNTED" == error.code
        assert "one counted contribution per player per session" in error.reason
    add(engine, bea, "a red umbrella")
    assert [who for who, _, _ in engine.campaign("Lab").signed] == ["ana", "bea"]
    tanner_rolls(engine)
    ended(engine)
    check = players_check(engine)
    assert not check.problems
    assert [who for who, _, _ in check.counted] == ["ana", "bea"]
    assert [who for who, _ in check.entropy] == ["ana", "bea"]


def test_the_next_session_takes_a_contribution_of_hers_again(table: Any) -> None:
    engine, ana, _ = table
    add(engine, ana, "pancakes")
    ended(engine)
    engine.execute("Lab", StartSession())
    add(engine, ana, "pancakes")
    assert [who for who, _, _ in engine.campaign("Lab").signed] == ["ana"]


def test_a_player_without_a_key_may_add_unsigned_words_that_never_count(
    tmp_path: Path, frozen: None
) -> None:
    """The rule is about counted contributions: unsigned words of a seat without a key change
    no die, so more of them are recorded (and listed as not counted); once her key is on her
    seat, her first signed words count and a second is refused."""
    with Engine(str(tmp_path / "campaign.db")) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        engine.execute("Lab", AddMember(member="ana", role=Role.PLAYER))
        engine.execute("Lab", StartSession())
        for words in ("one", "two"):
            engine.execute("Lab", AddEntropy(words=words, by="ana"), actor="ana")
        assert () == engine.campaign("Lab").signed
        ana = Player("ana")
        engine.execute("Lab", RegisterKey(member="ana", key=ana.public), actor="ana")
        ana.adds(engine, "three")
        refused(engine, lambda: ana.adds(engine, "four"), EntropyAlreadyCounted)
        assert [w for _, w, _ in engine.campaign("Lab").signed] == ["three"]
        free_roll(engine)
        ended(engine)
        check = players_check(engine)
    assert not check.problems
    assert [w for _, w in check.entropy] == ["one", "two", "three"]
    assert [w for _, w, _ in check.counted] == ["three"]


def test_a_log_recorded_before_these_rules_verifies_as_it_was_recorded(
    tmp_path: Path, frozen: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An older program recorded ana's signature in upper case and again: replay applies what
    the log holds (it never decides a command again), so the store loads, rolls, verifies,
    exports and imports, and the players' check counts both as they were mixed."""
    import domain.lifecycle

    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        ana = Player("ana").seated(engine)
        engine.execute("Lab", StartSession())
        tanner(engine)
        commitment = engine.campaign("Lab").commitment or ""
        signature = ana.sign(commitment, "pancakes")
        with monkeypatch.context() as older:  # the program before these checks
            older.setattr(domain.lifecycle, "check_canonical_signature", lambda *_: None)
            older.setattr(domain.lifecycle, "check_first_counted", lambda *_: None)
            for spelling in (signature.upper(), signature):
                engine.execute("Lab", AddEntropy(words="pancakes", by="ana", signature=spelling))
    with Engine(str(db)) as engine:  # loaded again: the stored events replay
        counted = (("ana", "pancakes", signature.upper()), ("ana", "pancakes", signature))
        assert counted == engine.campaign("Lab").signed
        seed, _ = secrets(engine)
        made = tanner_rolls(engine)
        sides = tuple(d.sides for d in made.dice)
        assert faces(made) == replay(key(seed, mixed_signed(counted)), 0, sides, lane("ana"))[0]
        ended(engine)
        assert engine.verify("Lab").intact
        check = players_check(engine)
        assert not check.problems
        assert [("ana", "pancakes", ana.public)] * 2 == list(check.counted)
        exported = list(engine.export("Lab", audience=GMS))
    with Engine() as other:
        other.import_campaign(exported)
        assert other.verify("Lab").intact


# --- Counter burning ----------------------------------------------------------------------------


def test_the_gms_rolls_cannot_move_a_players_next_roll(table: Any) -> None:
    """The GM, knowing the seed, rolls hidden and public free rolls before Tanner's roll: ana's
    roll reads her own counters, so it is the roll it would have been without them."""
    engine, ana, _ = table
    add(engine, ana, "pancakes")
    seed, _ = secrets(engine)
    commitment = engine.campaign("Lab").commitment or ""
    entropy = mixed_signed([("ana", "pancakes", ana.sign(commitment, "pancakes"))])
    free_roll(engine, "1d6", hidden=True)
    free_roll(engine, "1d6", hidden=True)
    free_roll(engine, "3d6")
    made = tanner_rolls(engine)
    sides = tuple(d.sides for d in made.dice)
    assert (made.lane, made.counter) == ("ana", 0)
    assert faces(made) == replay(key(seed, entropy), 0, sides, lane("ana"))[0]
    ended(engine)
    warnings = players_check(engine).warnings
    hidden = [w for w in warnings if "hidden committed dice were never revealed" in w]
    assert len(hidden) == 2
    assert all(f"(by {GM})" in w for w in hidden)


# --- Discards -----------------------------------------------------------------------------------


def test_roll_undo_roll_again_is_listed(table: Any) -> None:
    engine, ana, _ = table
    add(engine, ana, "pancakes")
    first = tanner_rolls(engine)
    engine.undo("Lab", first.number, reason="bad luck")
    second = tanner_rolls(engine)
    assert second.counter == first.counter + first.draws  # the undone counters are never reused
    ended(engine)
    check = players_check(engine)
    assert not check.problems
    assert any(
        f"ruling {first.number} (by ana): its committed dice were set aside, undone by {GM}" in w
        for w in check.warnings
    )


def test_undoing_hidden_rolls_until_one_suits_is_listed(table: Any) -> None:
    engine, ana, _ = table
    add(engine, ana, "pancakes")
    tries = [free_roll(engine, "1d6", hidden=True) for _ in range(3)]
    for made in tries[:2]:
        engine.undo("Lab", made.number, reason="not that one")
    engine.execute("Lab", RevealRuling(ruling=tries[2].number))
    ended(engine)
    check = players_check(engine)
    assert not check.problems
    for made in tries[:2]:
        assert any(
            f"ruling {made.number} (by {GM}): its committed dice were set aside" in w
            for w in check.warnings
        )


def test_a_session_ended_after_entropy_without_a_roll_is_listed(table: Any) -> None:
    engine, ana, _ = table
    add(engine, ana, "pancakes")
    ended(engine)
    engine.execute("Lab", StartSession())
    check = players_check(engine, session=1)
    assert any(
        "ended after players added entropy and before any committed roll" in w
        for w in check.warnings
    )


def test_a_player_may_not_send_a_seed_or_faces_into_a_committed_session(table: Any) -> None:
    engine, _ana, _ = table
    for spec in (DiceSpec(seed=7), DiceSpec(faces=(6, 6))):
        error = refused(
            engine, lambda spec=spec: tanner_rolls(engine, dice=spec), DiceNotFromCommitment
        )
        assert "session 1" in error.reason


def test_the_gms_seeds_and_typed_faces_are_listed(table: Any) -> None:
    engine, ana, _ = table
    add(engine, ana, "pancakes")
    seeded = free_roll(engine, "2d6", dice=DiceSpec(seed=7))
    typed = tanner_rolls(engine, actor=GM, dice=DiceSpec(faces=(6, 6)))
    ended(engine)
    warnings = players_check(engine).warnings
    assert any(
        f"ruling {seeded.number} (dice, by {GM}): its dice are digital-seeded" in w
        for w in warnings
    )
    assert any(
        f"ruling {typed.number} (roll, by {GM}): its dice are physical" in w for w in warnings
    )


# --- Silent fallback ----------------------------------------------------------------------------


def _replace_secret(db: Path, value: bytes) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE dice_secrets SET secret=?", (value,))


def test_a_missing_or_swapped_secret_refuses_to_roll_and_verify_names_the_session(
    tmp_path: Path, frozen: None
) -> None:
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        engine.execute("Lab", StartSession())
    _replace_secret(db, bytes(64))
    with Engine(str(db)) as engine:
        error = refused(engine, lambda: free_roll(engine), CommittedSecretMissing)
        assert "session 1" in error.reason
        engine.execute("Lab", RollFreely(expression="1d6", why="typed"), dice=DiceSpec(faces=(4,)))
        engine.execute("Lab", EndSession())
        report = engine.verify("Lab")
    assert not report.intact
    assert any("session 1 ended without revealing its seed" in f.problem for f in report.findings)


# --- Hidden rolls -------------------------------------------------------------------------------


def test_a_hidden_roll_never_revealed_cannot_be_computed_from_what_players_receive(
    table: Any,
) -> None:
    """After `session end`: the revealed seed, the entropy and every counter of every member
    give no die of the hidden roll (its key comes from the hidden seed, never revealed)."""
    engine, ana, _ = table
    add(engine, ana, "pancakes")
    hidden = free_roll(engine, "20d1000", hidden=True)
    ended(engine)
    campaign = engine.campaign("Lab")
    _, hidden_seed = secrets(engine)
    shown = list(engine.log("Lab", audience=Member("ana")))
    assert hidden.number not in {entry.ruling.number for entry in shown}
    revealed = next(
        r.event for entry in shown for r in entry.events if type(r.event).__name__ == "DiceRevealed"
    )
    seed = bytes.fromhex(revealed.seed)
    commitment = next(
        r.event.seed_hash
        for entry in shown
        for r in entry.events
        if type(r.event).__name__ == "DiceCommitted"
    )
    entropy = mixed_signed([("ana", "pancakes", ana.sign(commitment, "pancakes"))])
    sides = (1000,) * 20
    tries = {
        replay(key(seed, entropy), counter, sides, lane(member))[0]
        for member in (GM, "ana", "bea")
        for counter in range(64)
    } | {replay(key(seed, entropy), counter, sides)[0] for counter in range(64)}
    assert faces(hidden) not in tries
    export = "\n".join(engine.export("Lab", audience=GMS))
    assert hidden_seed.hex() not in export
    assert leaf_key(hidden_seed, 0).hex() not in export
    assert campaign.hidden_dice  # still waiting to be shown
    assert any("never revealed" in w for w in players_check(engine).warnings)


def test_a_revealed_hidden_roll_verifies_and_reveals_no_other(table: Any) -> None:
    engine, ana, _ = table
    add(engine, ana, "pancakes")
    first = free_roll(engine, "2d6", hidden=True)
    second = free_roll(engine, "2d6", hidden=True)
    result = engine.execute("Lab", RevealRuling(ruling=second.number))
    shown = next(e for e in result.events if isinstance(e, HiddenDiceRevealed))
    _, hidden_seed = secrets(engine)
    assert (shown.leaf, shown.leaf_key) == (1, leaf_key(hidden_seed, 1).hex())
    ended(engine)
    export = "\n".join(engine.export("Lab", audience=GMS))
    assert leaf_key(hidden_seed, 0).hex() not in export
    check = players_check(engine)
    assert not check.problems
    assert any(
        f"ruling {first.number} (by {GM}): its hidden committed dice were never revealed" in w
        for w in check.warnings
    )
    assert not any(f"ruling {second.number} " in w for w in check.warnings)


# --- Forgeries the players' check must see --------------------------------------------------------


def test_a_committed_roll_relabelled_physical_is_listed(tmp_path: Path, frozen: None) -> None:
    """Everything recomputed after the relabel (chains): the check lists the roll as not drawn
    from the commitment, and the reveal's counters no longer match the rolls recorded."""
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        engine.execute("Lab", AddMember(member="ana", role=Role.PLAYER))
        engine.execute("Lab", StartSession())
        made = free_roll(engine, "2d6")
        engine.execute("Lab", EndSession())
        campaign_id = engine.campaign("Lab").id

    def relabel(topic: str, body: dict[str, Any]) -> None:
        event = body["event"]
        if topic.endswith(":RulingMade") and event["number"] == made.number:
            event.update(provenance=Provenance.PHYSICAL.value, counter=None, draws=0, lane=None)

    rewrite_campaign_stream(db, campaign_id, relabel)
    with Engine(str(db)) as engine:
        lines = list(engine.export("Lab", audience=GMS))
    _, report = verify_export(lines)
    check = report.dice[0]
    assert any(
        f"ruling {made.number} (dice, by {GM}): its dice are physical" in w for w in check.warnings
    )
    assert check.problems  # the reveal says GM's counters were used; no roll recorded used them
    json.dumps(lines)  # the export stays plain JSON lines


def test_a_hidden_roll_revealed_without_its_key_does_not_check_out(
    tmp_path: Path, frozen: None
) -> None:
    """The key of a revealed hidden roll cut from the log (chains recomputed): the players'
    check cannot recompute it, and says so instead of passing it by."""
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        engine.execute("Lab", StartSession())
        hidden = free_roll(engine, "2d6", hidden=True)
        engine.execute("Lab", RevealRuling(ruling=hidden.number))
        engine.execute("Lab", EndSession())
        campaign_id = engine.campaign("Lab").id

    def cut_the_key(topic: str, body: dict[str, Any]) -> None:
        if topic.endswith(":HiddenDiceRevealed"):
            body["event"] = {**body["event"], "ruling": 999}

    rewrite_campaign_stream(db, campaign_id, cut_the_key)
    with Engine(str(db)) as engine:
        check = players_check(engine)
    assert any(
        f"ruling {hidden.number} was revealed without its hidden dice's key" in p
        for p in check.problems
    )


def test_a_counter_rewritten_as_text_is_named_not_raised(tmp_path: Path, frozen: None) -> None:
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        engine.create_campaign("Lab", "sims", gm=GM)
        engine.execute("Lab", StartSession())
        made = free_roll(engine, "1d6")
        engine.execute("Lab", EndSession())
        campaign_id = engine.campaign("Lab").id

    def as_text(topic: str, body: dict[str, Any]) -> None:
        if topic.endswith(":RulingMade") and body["event"]["number"] == made.number:
            body["event"]["counter"] = "zero"

    rewrite_campaign_stream(db, campaign_id, as_text)
    with Engine(str(db)) as engine:
        report = engine.verify("Lab")
    assert not report.intact
    assert any(
        f"ruling {made.number}'s committed dice do not read" in p for p in report.dice[0].problems
    )


def test_a_session_started_again_commits_to_a_new_seed(table: Any) -> None:
    """Undo the start after a player's words, start again: a new commitment, so the words
    signed for the first one cannot be recorded in the second."""
    engine, ana, _ = table
    engine.execute("Lab", EndScene())
    engine.execute("Lab", EndSession())
    engine.execute("Lab", StartSession())
    first = engine.campaign("Lab").commitment or ""
    signature = ana.sign(first, "pancakes")
    ana.adds(engine, "pancakes")
    start = engine.campaign("Lab").rulings - 1
    engine.undo("Lab", start, reason="wrong night", with_dependents=True)
    engine.execute("Lab", StartSession())
    assert engine.campaign("Lab").commitment not in (None, first)
    replayed = AddEntropy(words="pancakes", by="ana", signature=signature)
    refused(engine, lambda: engine.execute("Lab", replayed, actor="ana"), EntropySignatureInvalid)


def test_entropy_signed_by_a_key_the_gm_put_on_the_seat_is_listed(
    tmp_path: Path, frozen: None
) -> None:
    """The GM makes a key himself, puts it on ana's seat and signs words in her name: it
    counts (the signature holds), and the players' check tells ana to look at that key."""
    with Engine(str(tmp_path / "campaign.db")) as engine:
        engine.create_campaign("Lab", "sims", gm=GM)
        engine.execute("Lab", AddMember(member="ana", role=Role.PLAYER))
        forged = Player("ana")
        engine.execute("Lab", RegisterKey(member="ana", key=forged.public))  # by the GM
        engine.execute("Lab", StartSession())
        commitment = engine.campaign("Lab").commitment or ""
        words = AddEntropy(words="mine", by="ana", signature=forged.sign(commitment, "mine"))
        engine.execute("Lab", words)
        free_roll(engine)
        engine.execute("Lab", EndSession())
        check = players_check(engine)
    assert any(
        f"signed by the key {GM} put on ana's seat: ana, check it is yours" in w
        for w in check.warnings
    )


def test_at_a_table_of_physical_dice_players_type_faces_but_no_seed(
    tmp_path: Path, frozen: None
) -> None:
    """`session start --physical-dice`: ana types what she rolled (listed as physical); a seed
    stays the GM's."""
    with Engine(str(tmp_path / "campaign.db")) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        Player("ana").seated(engine)
        engine.execute("Lab", StartSession(physical_dice=True))
        tanner(engine)
        typed = tanner_rolls(engine, dice=DiceSpec(faces=(6, 6)))
        assert (Provenance.PHYSICAL, (6, 6)) == (typed.provenance, faces(typed))
        seeded = lambda: tanner_rolls(engine, dice=DiceSpec(seed=7))  # noqa: E731
        refused(engine, seeded, DiceNotFromCommitment)
        ended(engine)
        warnings = players_check(engine).warnings
    assert any(
        f"ruling {typed.number} (roll, by ana): its dice are physical" in w for w in warnings
    )

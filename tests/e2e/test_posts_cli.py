"""`campaign post` and `campaign thread` through click's runner: posting in each voice, a roll
in a post, `--say` on a ruling verb (in the thread and in `replay`), the thread in every format,
an author's edit, and refusals that exit 2 and append nothing."""

from __future__ import annotations

import json
from collections.abc import Callable

from tests.e2e.conftest import Run


def _scene(run: Run) -> None:
    for line in (
        'init "Night Shift" --system code-green --gm Rosa --member alice:player '
        "--member olly:observer",
        "session start --physical-dice",
        'scene start "The cold room" --say "The compressor hums."',
        "character create --player alice --form Legs,Tail,Teeth "
        "--function Cryptic,Invulnerable,Phasing --dice 3,1,4,1,5",
        "place 31415 R1C1 R2C2 R3C3",
    ):
        result = run(line)
        assert 0 == result.exit_code, (line, result.output)


def test_posts_in_every_voice_and_the_thread(run: Run) -> None:
    _scene(run)
    lines = [
        'post "The lights *flicker*."',
        '--as alice post "I sniff the air [2d6+1 for the smell]" --dice 3,4',
        '--as alice post "is it my turn?" --ooc',
        '--as olly post "great scene" --ooc',
        'post "The guard sees you." --npc Guard',
        '--as alice post "just for you" --to Rosa',
        'test 31415 Legs Invulnerable --say "Teeth bared, she lunges"',
    ]
    for line in lines:
        result = run(line)
        assert 0 == result.exit_code, (line, result.output)
    text = run("thread").output
    assert "#6 GM Rosa:" in text
    assert "I sniff the air [2d6+1: [3,4] + 1 = 8, for the smell]" in text
    assert "31415 (alice):" in text
    assert "olly (out of character):" in text
    assert "Guard (NPC, Rosa):" in text
    assert "The compressor hums." in text
    assert "Teeth bared, she lunges" in text
    assert "just for you" in text  # the GM reads it
    assert "just for you" not in run("--as olly thread").output
    data = json.loads(run("thread --format json").output)
    assert "campaign-log/thread" == data["format"]
    voices = [e["post"]["voice"] for e in data["entries"] if e["post"]]
    assert ["narration", "character", "ooc", "ooc", "npc", "character"] == voices
    assert "<em>flicker</em>" in run("thread --format html").output
    assert "\\*flicker\\*" in run("thread --format md").output
    assert "(1/" not in run("thread --format discord").output  # one message: no numbers
    replayed = run("replay").output
    assert "> Teeth bared, she lunges" in replayed
    assert "31415 says: I sniff the air [2d6+1: [3,4] + 1 = 8, for the smell]" in replayed


def test_an_author_edits_and_the_gm_strikes(run: Run) -> None:
    _scene(run)
    assert 0 == run('--as alice post "I sneze"').exit_code
    edited = run('--as alice amend 6 --set "text=I sneeze" --reason typo')
    assert 0 == edited.exit_code, edited.output
    assert 0 == run('undo 6 --reason "off topic"').exit_code
    text = run("thread").output
    assert "I sneeze" in text
    assert "[edited by #7 (alice): typo]" in text
    assert "[struck by #8 (Rosa): off topic]" in text


def test_an_edit_that_changes_a_roll_is_refused_and_one_of_the_words_is_not(
    run: Run, count: Callable[[], int]
) -> None:
    """alice rolled [1d20+2] = 19 and edits it to [1d20+15]: exit 2, the code on stderr,
    nothing appended, the thread shows the roll as rolled. Her edit of the words stands."""
    _scene(run)
    rolled = run('--as alice post "I jump the gap [1d20+2]" --dice 17')
    assert 0 == rolled.exit_code, rolled.output
    before = count()
    for line in (
        '--as alice amend 6 --set "text=I jump the gap [1d20+15]" --reason typo',
        'amend 6 --set "text=I jump the gap [1d20+15]" --reason typo',  # the GM neither
        '--as alice amend 6 --set "text=I jump the gap" --reason typo',
    ):
        result = run(line)
        assert 2 == result.exit_code, (line, result.output)
        assert result.stderr.startswith("error: POST_ROLL_CHANGED: ")
        assert "edits ruling 6, a post whose rolls were rolled as written" in result.stderr
        assert "" == result.stdout
    assert before == count()
    assert "[1d20+2: [17] + 2 = 19]" in run("thread").output
    edited = run('--as alice amend 6 --set "text=I *leap* the gap [1d20+2]" --reason verb')
    assert 0 == edited.exit_code, edited.output
    text = run("thread").output
    assert "I *leap* the gap [1d20+2: [17] + 2 = 19]" in text
    assert "[edited by #7 (alice): verb]" in text


def test_refused_posts_exit_2_and_append_nothing(run: Run, count: Callable[[], int]) -> None:
    _scene(run)
    before = count()
    for line in (
        '--as olly post "I narrate"',
        '--as alice post "I am the guard" --npc Guard',
        '--as alice post "x" --ooc --character 31415',
        'post "[2d6 +] falls"',
        "post '   '",
        "--as olly thread --for alice",
    ):
        result = run(line)
        assert 2 == result.exit_code, (line, result.output)
        assert "error:" in result.output
    assert before == count()


def test_the_log_and_the_answer_quote_a_rulings_narration(run: Run) -> None:
    _scene(run)
    answer = run('test 31415 Legs Invulnerable --say "Teeth bared, she lunges"').output
    assert answer.splitlines()[1] == '  "Teeth bared, she lunges"'
    shown = run("log").output.splitlines()
    at = next(i for i, line in enumerate(shown) if line.endswith("test [session 1, scene 1]"))
    assert '  "Teeth bared, she lunges"' == shown[at + 1]
    assert '  "The compressor hums."' in shown


def test_an_author_corrects_a_rulings_narration(run: Run, count: Callable[[], int]) -> None:
    """`amend N --set say=...`: the log keeps the old narration (marked replaced) above the new
    one, the thread shows the new one marked edited, `search` finds both; another player, an
    empty narration and a post's `say` are refused, appending nothing."""
    _scene(run)
    assert 0 == run('--as alice test 31415 Legs Invulnerable --say "Teeth bard"').exit_code
    assert 0 == run('--as alice post "I sneeze"').exit_code
    before = count()
    for line in (
        '--as olly amend 6 --set "say=x" --reason mine',
        'amend 6 --set "say= " --reason typo',
        'amend 7 --set "say=x" --reason typo',
    ):
        result = run(line)
        assert 2 == result.exit_code, (line, result.output)
    assert before == count()
    fixed = run('--as alice amend 6 --set "say=Teeth bared, she lunges" --reason typo')
    assert 0 == fixed.exit_code, fixed.output
    shown = run("log").output.splitlines()
    at = next(i for i, line in enumerate(shown) if line.endswith("test [session 1, scene 1]"))
    assert '  ~ "Teeth bard"' == shown[at + 1]
    assert '  > "Teeth bared, she lunges"' in shown[at + 2 :]
    text = run("thread").output
    assert "    Teeth bared, she lunges" in text
    assert "[edited by #8 (alice): typo]" in text
    assert "#8 " in run("search bared").output
    assert "(amended)" in run("search bard").output

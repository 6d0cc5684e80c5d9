"""Posts: what somebody at the table writes, as a ruling of its own (every system).

A post is Markdown text with its speaker: the GM narrating (the default for a GM), a character
(``--character``: a player for their own characters, the GM for any), an NPC (``--npc``, the
GM's), or a member out of character (``--ooc``: anyone, observers included). ``to`` makes it
private: the author, those members and the GMs read it (``domain.visibility.Private``); a
system may refuse more of a private post (its ruleset's ``check_private_post``: the Sims' Behind
the Scenes).

A roll written in brackets inside the text (``[2d6+1]``, ``[4d6kh3 for the climb]``) is a free
roll of the post's ruling: the notation, the dice and the limits of ``campaign dice``
(``domain.free_rolls``), recorded where it stands in the text (``domain.post_rolls``). A bracket
that is not dice notation (``[an aside]``, a Markdown link ``[text](https://...)``) stays text.

A post reads nothing a roll changes (only the table's members and roster), so undoing or
amending a roll never touches a post; the author may amend their own post's text
(``domain.own_words``), every roll in it kept exactly as written (``check_edit_keeps_rolls``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from attrs import frozen

from domain.campaign import CampaignState, Member
from domain.commands import Change, View
from domain.dice import DiceSource
from domain.errors import DomainError, NotAllowed, UnknownMember
from domain.events import PostKind, PostWritten, Role
from domain.limits import MAX_NAME
from domain.plain import Plain
from domain.policy import acting_member
from domain.post_rolls import TooManyPostRolls as TooManyPostRolls  # its refusal, as it was
from domain.post_rolls import Written as Written
from domain.post_rolls import roll_inline, rolls_written
from domain.rulesets import ruleset_named
from domain.seats import required_text

POST = "post"


class PostSpeakersConflict(DomainError):
    template = "a post has one speaker: give one of --character, --npc and --ooc, not {given}"


class PostNeedsSpeaker(DomainError):
    template = (
        "{who} plays {count} characters: a player posts in character (--character NAME) or "
        "out of it (--ooc)"
    )


class InvalidNpcName(DomainError):
    template = "{name!r} is not an NPC's name: printable, 1 to {limit} characters"


class PrivatePostToSelf(DomainError):
    template = "{name} writes to themself: --to names the other members who read the post"


class EditRollsAnew(DomainError):
    template = (
        "{who} edits ruling {ruling}, whose rolls are its dice: the new text rolls {new} "
        "die(s) more than it rolled; post the new roll as a post of its own"
    )


class PostRollChanged(DomainError):
    template = (
        "{who} edits ruling {ruling}, a post whose rolls were rolled as written: the edit "
        "{change}; an edit changes only the words around a post's rolls, each roll's brackets "
        "stay exactly as written (post a new roll as a post of its own)"
    )


class PostSaysItsText(DomainError):
    template = (
        "ruling {ruling} is a post, whose text is what it says: amend its text (--set text=...), "
        "not a narration"
    )


# --- The command -------------------------------------------------------------------------------


@frozen(kw_only=True)
class WritePost(Plain):
    """Post to the table's thread (Markdown): narration by the GM (the default for a GM), in
    character (a player's own character, any for the GM), as an NPC (the GM), or out of
    character (anyone, observers too); private to some members with 'to'. A roll written in
    brackets ([2d6+1], [4d6kh3 for the climb]) is rolled in the post's ruling."""

    name: ClassVar[str] = POST
    rolls: ClassVar[bool] = True  # its decide may draw dice
    text: str
    by: str
    character: str | None = None
    npc: str | None = None
    ooc: bool = False
    to: tuple[str, ...] = ()

    def audience(self) -> tuple[str, ...]:
        """Who reads a private post besides the GMs: its author and ``to`` (none: public)."""
        if not self.to:
            return ()
        return tuple(dict.fromkeys((self.by, *self.to)))

    def check_actor(self, campaign: CampaignState) -> None:
        """Refuse the post when its author may not write it so: as that speaker, to those
        members (``domain.policy.check_ruling`` asks, before it is decided and in ``verify``)."""
        self._speaking(campaign)

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        campaign = view.campaign
        author, kind, speaker, character_id, to = self._speaking(campaign)
        text = required_text(self.text, "the post")
        post = PostWritten(
            by=author.name,
            kind=kind,
            speaker=speaker,
            character_id=character_id,
            to=to,
            text=text,
            rolls=roll_inline(text, dice),
        )
        return (Change(campaign.id, post),)

    def _speaking(
        self, campaign: CampaignState
    ) -> tuple[Member, PostKind, str, Any, tuple[str, ...]]:
        """The author, the kind of post, its speaker (and character) and its recipients."""
        author = acting_member(campaign, self.by)
        if self.to:  # a system's own rule for private writing comes first (the Sims')
            ruleset_named(campaign.system).check_private_post(campaign, self)
        kind, speaker, character_id = self._speaker(campaign, author)
        return author, kind, speaker, character_id, self._recipients(campaign, author)

    def _speaker(self, campaign: CampaignState, author: Member) -> tuple[PostKind, str, Any]:
        given = [
            flag
            for flag, value in (
                ("--character", self.character is not None),
                ("--npc", self.npc is not None),
                ("--ooc", self.ooc),
            )
            if value
        ]
        if len(given) > 1:
            raise PostSpeakersConflict(given=" and ".join(given))
        if self.ooc:
            return PostKind.OOC, "", None
        if author.role is Role.OBSERVER:
            rule = "an observer posts out of character (--ooc)"
            raise NotAllowed(who=author.name, role=author.role, what=POST, rule=rule)
        own = campaign.own_characters(author)
        if self.npc is not None:
            if author.role is not Role.GM:
                rule = "NPCs speak through the GM"
                raise NotAllowed(who=author.name, role=author.role, what=POST, rule=rule)
            npc = self.npc.strip()
            if not npc or len(npc) > MAX_NAME or not npc.isprintable():
                raise InvalidNpcName(name=self.npc[:MAX_NAME], limit=MAX_NAME)
            return PostKind.NPC, npc, None
        if self.character is not None:
            entry = campaign.find(self.character)
            if author.role is not Role.GM and entry.character_id not in own:
                rule = f"{entry.name} is not one of {author.name}'s characters"
                raise NotAllowed(who=author.name, role=author.role, what=POST, rule=rule)
            return PostKind.CHARACTER, entry.name, entry.character_id
        if author.role is Role.GM:
            return PostKind.NARRATION, "", None
        played = [e for e in campaign.roster if e.character_id in own]
        if len(played) != 1:  # a player who plays one character speaks as them
            raise PostNeedsSpeaker(who=author.name, count=len(played))
        return PostKind.CHARACTER, played[0].name, played[0].character_id

    def _recipients(self, campaign: CampaignState, author: Member) -> tuple[str, ...]:
        if self.to and author.role is Role.OBSERVER:
            rule = "an observer posts to the whole table"
            raise NotAllowed(who=author.name, role=author.role, what=POST, rule=rule)
        to = []
        for name in dict.fromkeys(n.strip() for n in self.to):
            member = campaign.member(name)
            if member is None:
                known = ", ".join(m.name for m in campaign.seats)
                raise UnknownMember(name=name, known=known)
            if member.name == author.name:
                raise PrivatePostToSelf(name=name)
            to.append(member.name)
        return tuple(to)


# --- Editing one's own post (who may: ``domain.own_words``) ------------------------------------


def check_edit_keeps_rolls(who: str, ruling: int, text: str, edited: str) -> None:
    """An edit of a post's text keeps its rolls exactly: the same rolls in the same order, each
    bracket as written (its expression, and what it is for: ``[1d20+2 for the jump]``); only
    the words around them may change. The dice were seen before any edit, so an edit that
    changed an expression (``[1d20+2]`` to ``[1d20+15]``), a roll's purpose, or added or
    removed a roll would choose the result after the fact."""
    before = [text[w.start : w.end] for w in rolls_written(text)]
    after = [edited[w.start : w.end] for w in rolls_written(edited)]
    if before == after:
        return
    if len(before) == len(after):
        number, was, now = next(
            (n, b, a) for n, (b, a) in enumerate(zip(before, after, strict=True), 1) if b != a
        )
        change = f"writes roll {number} {was} as {now}"
    elif len(after) > len(before):
        change = "adds " + ", ".join((Counter(after) - Counter(before)).elements())
    else:
        change = "removes " + ", ".join((Counter(before) - Counter(after)).elements())
    raise PostRollChanged(who=who, ruling=ruling, change=change)


def check_edit_dice(campaign: CampaignState, who: str, ruling: int, new: int) -> None:
    """An author's edit keeps the post's dice: a player's edit that would roll ``new`` dice the
    post never rolled is refused (those dice would come from no commitment)."""
    if new and acting_member(campaign, who).role is not Role.GM:
        raise EditRollsAnew(who=who, ruling=ruling, new=new)

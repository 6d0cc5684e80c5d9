"""A player's sealed roll (protocol 3): the text the player signs on their own client, and the
checks a seal passes before its roll is recorded.

The text (``domain.signatures.seal_message``) names the session's commitment, the member, which
of their sealed rolls of the session it is, the command and its arguments exactly as the ruling
will record them. The server gives it (``Engine.seal_text``), the player's client shows it and
signs it with the key whose public half is on their seat, and the roll is asked for with the
signature. The check here is the one ``verify`` makes of the recorded ruling."""

from __future__ import annotations

from typing import Any

from domain.campaign import CampaignState
from domain.errors import DomainError, ErrorKind
from domain.signatures import seal_message, signature_holds, signature_text_problem
from engine.dice.committed import SEALED
from engine.store.mapper import canonical_json, converter


class SealNotCanonical(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "the seal is {problem}: a seal is the signature's 128 lower-case hex digits, as "
        "`campaign key seal` or the table page makes it"
    )


class SealWithoutSealedDice(DomainError):
    template = (
        "a sealed roll draws on the running session's committed dice, of protocol {protocol} "
        "or later ({why}): roll without --seal"
    )


class SealWithoutKey(DomainError):
    template = (
        "{member} has no key on their seat, and a seal is checked against it: put the public "
        "half of their key there first (`campaign member key {member} PUBLIC_KEY`)"
    )


class SealDoesNotHold(DomainError):
    template = (
        "the seal is not {member}'s signature of this roll (their sealed roll {sealed} of "
        "session {session}: `{command}` with these arguments): sign the text that --seal-text "
        "prints, with the key on {member}'s seat"
    )


class SealWithGivenDice(DomainError):
    template = "a sealed roll's dice come from its seal: {given} cannot come with it"


class SealOnHiddenRoll(DomainError):
    template = (
        "a hidden roll is the GM's, foreseeable by the GM's machine, and no player seals it: "
        "roll it without --seal"
    )


def args_text(command: Any) -> str:
    """The command's arguments as the ruling records them (canonical JSON)."""
    return canonical_json(converter.unstructure(command)).decode()


def sealing(campaign: CampaignState, member: str) -> int:
    """Which sealed roll of ``member`` the next one is; refused where no roll can be sealed."""
    if campaign.session is None or campaign.commitment is None:
        raise SealWithoutSealedDice(protocol=SEALED, why="no session with committed dice runs")
    if campaign.dice_protocol < SEALED:
        why = f"session {campaign.session} committed to protocol {campaign.dice_protocol}"
        raise SealWithoutSealedDice(protocol=SEALED, why=why)
    return campaign.next_seal(member)


def can_seal(campaign: CampaignState, member: str) -> bool:
    """Whether ``member``'s next roll may be sealed by them: a session committed to protocol 3
    or later runs and a key is on their seat (a player's: no GM holds one)."""
    seat = campaign.member(member)
    if seat is None or not seat.key:
        return False
    running = campaign.session is not None and campaign.commitment is not None
    return running and campaign.dice_protocol >= SEALED


def seal_text(campaign: CampaignState, member: str, command: Any) -> str:
    """The text ``member`` signs to seal ``command`` as their next sealed roll."""
    sealed = sealing(campaign, member)
    assert campaign.commitment is not None  # sealing refuses a session without one
    message = seal_message(campaign.commitment, member, sealed, command.name, args_text(command))
    return message.decode()


def sealed_in(text: str) -> int:
    """Which sealed roll of its member a text ``seal_text`` gave is (its fourth line)."""
    return int(text.split("\n")[3])


def check_seal(
    campaign: CampaignState, member: str, command: Any, seal: str, *, given: str | None
) -> int:
    """Refuse a seal that is not ``member``'s signature of ``command`` as their next sealed
    roll, by the key on their seat; which sealed roll it is."""
    problem = signature_text_problem(seal)
    if problem is not None:
        raise SealNotCanonical(problem=problem)
    if given is not None:
        raise SealWithGivenDice(given=given)
    sealed = sealing(campaign, member)
    seat = campaign.member(member)
    key = seat.key if seat is not None else ""
    if not key:
        raise SealWithoutKey(member=member)
    assert campaign.commitment is not None
    message = seal_message(campaign.commitment, member, sealed, command.name, args_text(command))
    if not signature_holds(key, message, seal):
        raise SealDoesNotHold(
            member=member, sealed=sealed, session=campaign.session, command=command.name
        )
    return sealed

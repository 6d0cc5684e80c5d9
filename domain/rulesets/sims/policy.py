"""The Sims RPG: what a player may issue for the characters they play (``domain.policy``). The
GM sets turn order, judges simple situations, declares danger, authorises recovery, kills and
rules missions; a player rolls, attacks, picks strategies, spends ranks and improves. Writing
privately (Behind the Scenes) is a private post, the shared ``post --to``."""

from domain.policy import PlayerMay

PLAYERS = {
    "character create": PlayerMay(as_player="player"),
    # Being Badass is an upshift the GM gives (Being Badass); Failure or Damage Ranks go by the
    # nature of the conflict, the GM's reading of it (Damage, PDQ-A5).
    "roll": PlayerMay(gm_calls=("badass",)),
    "attack": PlayerMay(gm_calls=("badass", "kind")),
    "reroll": PlayerMay(),
    "allocate": PlayerMay(),  # the defender distributes the ranks
    "strategy": PlayerMay(),
    "recover": PlayerMay(),
    "restore": PlayerMay(),
    "replace": PlayerMay(gm_calls=("gm_approved",)),
    "upgrade": PlayerMay(),
    "master-plus": PlayerMay(),
    "rebirth": PlayerMay(),
}

# The commands no verb builds any more (``commands.RETIRED``), as a player could issue them when
# one did: a ruling that recorded one is held to it (``verify``, ``import``).
RETIRED = {
    "message": PlayerMay(as_player="by"),  # for their own character (now ``post --to``)
}

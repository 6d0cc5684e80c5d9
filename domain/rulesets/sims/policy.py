"""The Sims RPG: what a player may issue for the characters they play (``domain.policy``). The
GM sets turn order, judges simple situations, declares danger, authorises recovery, kills and
rules missions; a player rolls, attacks, picks strategies, spends ranks and improves."""

from domain.policy import PlayerMay

PLAYERS = {
    "character create": PlayerMay(as_player="player"),
    "roll": PlayerMay(acting=("character",)),
    "attack": PlayerMay(acting=("attacker",)),
    "reroll": PlayerMay(acting=("attacker",)),
    "allocate": PlayerMay(acting=("character",)),  # the defender distributes the ranks
    "strategy": PlayerMay(acting=("character",)),
    "recover": PlayerMay(acting=("character",)),
    "restore": PlayerMay(acting=("character",)),
    "replace": PlayerMay(acting=("character",), gm_calls=("gm_approved",)),
    "upgrade": PlayerMay(acting=("character",)),
    "master-plus": PlayerMay(acting=("character",)),
    "rebirth": PlayerMay(acting=("character",)),
}

"""Code Green: what a player may issue for the characters they play (``domain.policy``). The GM
calls for strain and recovery; a player declares, rolls and assists tests and adapts."""

from domain.policy import PlayerMay

PLAYERS = {
    "character create": PlayerMay(as_player="player"),
    "place": PlayerMay(acting=("character",)),
    "test": PlayerMay(acting=("character",)),
    "assist": PlayerMay(acting=("helper",)),  # a character helps another's test
    "roll": PlayerMay(acting=("character",)),
    "displace": PlayerMay(acting=("character",)),
    "adapt": PlayerMay(acting=("character",)),
}

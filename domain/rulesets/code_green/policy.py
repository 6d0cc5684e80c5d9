"""Code Green: what a player may issue for the characters they play (``domain.policy``). The GM
calls for strain and recovery and rules an assist out; a player declares, rolls and assists tests,
adapts, and renames their own character."""

from domain.policy import PlayerMay

PLAYERS = {
    "character create": PlayerMay(as_player="player"),
    "character rename": PlayerMay(),
    "place": PlayerMay(),
    "test": PlayerMay(),
    "assist": PlayerMay(),  # a character helps another's test
    "roll": PlayerMay(),
    "displace": PlayerMay(),
    "adapt": PlayerMay(),
}

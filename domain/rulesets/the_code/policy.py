"""The Code: what a player may issue for the heroes they play (``domain.policy``). The GM rules
Ability steps, challenges, conduct, contests, reactions, Exposure rolls, objectives, problems
solved and come back, and brings in NPCs; a player spends Motivation and Reward Points, follows
their MO and takes days off."""

from domain.policy import PlayerMay

PLAYERS = {
    "character create": PlayerMay(as_player="player"),
    "motivation": PlayerMay(),
    "buy-motivation": PlayerMay(),
    "lower-exposure": PlayerMay(),
    "mo": PlayerMay(),
    "day-off": PlayerMay(),
}

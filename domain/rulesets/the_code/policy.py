"""The Code: what a player may issue for the heroes they play (``domain.policy``). The GM rules
Ability steps, challenges, conduct, contests, reactions, Exposure rolls, objectives, problems
solved and come back, whether a hero followed their MO this session (R-TC-14, TC-A27: a GM-ruled
session flag, undoable like any ruling), and brings in NPCs; a player spends Motivation and
Reward Points and takes days off, and says their hero followed the MO only where house rule
playersRecordMo opens it to players."""

from domain.policy import PlayerMay

PLAYERS = {
    "character create": PlayerMay(as_player="player"),
    "motivation": PlayerMay(),
    "buy-motivation": PlayerMay(),
    "lower-exposure": PlayerMay(),
    "mo": PlayerMay(opened_by="playersRecordMo"),
    "day-off": PlayerMay(),
}

"""Sprawl Goons: what a player may issue for the goons they play (``domain.policy``). The
referee calls Glitch and Upgrade dice, runs NPCs, initiative, rounds, hazards, explosions,
falls, medical care and cash, and rules items in; a player rolls, fights, hacks, heals, aims,
reloads, uses and drops their kit and levels up."""

from domain.policy import PlayerMay

REFEREE = ("glitch", "upgrade")  # the referee's calls on a roll

PLAYERS = {
    "character create": PlayerMay(as_player="player"),
    "roll": PlayerMay(gm_calls=REFEREE),
    "attack": PlayerMay(gm_calls=REFEREE),
    "grenade": PlayerMay(gm_calls=REFEREE),
    "hack": PlayerMay(gm_calls=REFEREE),
    "first-aid": PlayerMay(gm_calls=REFEREE),
    "patch": PlayerMay(),
    "aim": PlayerMay(),
    "reload": PlayerMay(),
    "use-item": PlayerMay(),
    "item drop": PlayerMay(),
    "level-up": PlayerMay(),
}

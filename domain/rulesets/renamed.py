"""Classes renamed or moved since a store may have recorded them, by their old topic.

A ruling header records its command's topic (``module:Class``) and a stored row its event's;
both outlive any rename. Each entry maps the old topic to the class's topic now, so that old
stores still load, amend, undo, verify and import. Add one whenever a recorded class is renamed
or moved to another module; never remove one.
"""

from __future__ import annotations

RENAMED: dict[str, str] = {
    # "domain.rulesets.<system>.<module>:<OldName>": "domain.rulesets.<system>.<module>:<NewName>",
    # Sprawl Goons: commands in modules named after the rule text's sections, in the imperative.
    "domain.rulesets.sprawl_goons.actions:ActionRoll": (
        "domain.rulesets.sprawl_goons.action_roll:MakeActionRoll"
    ),
    "domain.rulesets.sprawl_goons.actions:Hack": "domain.rulesets.sprawl_goons.hacking:Hack",
    "domain.rulesets.sprawl_goons.actions:FirstAid": (
        "domain.rulesets.sprawl_goons.healing:GiveFirstAid"
    ),
    "domain.rulesets.sprawl_goons.creation:AddItem": (
        "domain.rulesets.sprawl_goons.inventory:AddItem"
    ),
    "domain.rulesets.sprawl_goons.creation:ChangeCash": (
        "domain.rulesets.sprawl_goons.inventory:ChangeCash"
    ),
    "domain.rulesets.sprawl_goons.creation:DropItem": (
        "domain.rulesets.sprawl_goons.inventory:DropItem"
    ),
    "domain.rulesets.sprawl_goons.creation:Reload": "domain.rulesets.sprawl_goons.inventory:Reload",
    "domain.rulesets.sprawl_goons.creation:UseItem": (
        "domain.rulesets.sprawl_goons.inventory:UseItem"
    ),
    "domain.rulesets.sprawl_goons.combat:RollInitiative": (
        "domain.rulesets.sprawl_goons.initiative:RollInitiative"
    ),
    "domain.rulesets.sprawl_goons.recovery:ApplyPatch": (
        "domain.rulesets.sprawl_goons.healing:ApplyPatch"
    ),
    "domain.rulesets.sprawl_goons.recovery:CompleteMission": (
        "domain.rulesets.sprawl_goons.advancement:CompleteMission"
    ),
    "domain.rulesets.sprawl_goons.recovery:DisableCyberLimb": (
        "domain.rulesets.sprawl_goons.critical_injuries:DisableCyberLimb"
    ),
    "domain.rulesets.sprawl_goons.recovery:LevelUp": (
        "domain.rulesets.sprawl_goons.advancement:LevelUp"
    ),
    "domain.rulesets.sprawl_goons.recovery:MedicalAttention": (
        "domain.rulesets.sprawl_goons.healing:GiveMedicalAttention"
    ),
    "domain.rulesets.sprawl_goons.recovery:RepairCyberLimb": (
        "domain.rulesets.sprawl_goons.critical_injuries:RepairCyberLimb"
    ),
    "domain.rulesets.sprawl_goons.recovery:Rest": "domain.rulesets.sprawl_goons.healing:Rest",
    "domain.rulesets.sprawl_goons.recovery:SlagArmour": (
        "domain.rulesets.sprawl_goons.critical_injuries:SlagArmour"
    ),
    # Sims: commands named in the imperative.
    "domain.rulesets.sims.improvement:CampaignSucceeded": (
        "domain.rulesets.sims.improvement:SucceedCampaign"
    ),
    "domain.rulesets.sims.improvement:MissionSucceeded": (
        "domain.rulesets.sims.improvement:SucceedMission"
    ),
    "domain.rulesets.sims.improvement:Rebirth": "domain.rulesets.sims.improvement:TakeRebirth",
    "domain.rulesets.sims.turns:NextTurn": "domain.rulesets.sims.turns:EndTurn",
    # The Code: play.py split by the rule text's sections; commands in the imperative.
    "domain.rulesets.the_code.contest:Contest": "domain.rulesets.the_code.contest:SettleContest",
    "domain.rulesets.the_code.play:RuleChallenge": (
        "domain.rulesets.the_code.challenges:RuleChallenge"
    ),
    "domain.rulesets.the_code.play:UseMotivation": (
        "domain.rulesets.the_code.challenges:UseMotivation"
    ),
    "domain.rulesets.the_code.play:FollowMo": "domain.rulesets.the_code.session_flags:FollowMo",
    "domain.rulesets.the_code.play:WeaknessInPlay": (
        "domain.rulesets.the_code.session_flags:RuleWeaknessInPlay"
    ),
    "domain.rulesets.the_code.play:RuleConduct": (
        "domain.rulesets.the_code.session_flags:RuleConduct"
    ),
    "domain.rulesets.the_code.play:TakeDaysOff": "domain.rulesets.the_code.days_off:TakeDaysOff",
    # Code Green: play.py split by the rule text's sections; token placement in its own module.
    "domain.rulesets.code_green.creation:PlaceTokens": (
        "domain.rulesets.code_green.placement:PlaceTokens"
    ),
    "domain.rulesets.code_green.play:DeclareTest": (
        "domain.rulesets.code_green.making_tests:DeclareTest"
    ),
    "domain.rulesets.code_green.play:AssistTest": (
        "domain.rulesets.code_green.making_tests:AssistTest"
    ),
    "domain.rulesets.code_green.play:RollTest": "domain.rulesets.code_green.making_tests:RollTest",
    "domain.rulesets.code_green.play:Adapt": "domain.rulesets.code_green.making_tests:Adapt",
    "domain.rulesets.code_green.play:SufferStrain": (
        "domain.rulesets.code_green.strain:SufferStrain"
    ),
    "domain.rulesets.code_green.play:DisplaceToken": (
        "domain.rulesets.code_green.strain:DisplaceToken"
    ),
    "domain.rulesets.code_green.play:Recover": "domain.rulesets.code_green.strain:Recover",
}

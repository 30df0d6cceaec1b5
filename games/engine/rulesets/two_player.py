"""two_player — placeholder Ruleset; its owner fills in play, restrictions and scoring."""

from __future__ import annotations

from games.engine.rulesets.base import Ruleset


class TwoPlayerRuleset(Ruleset):
    id = "two_player"
    players = 2


RULESET = TwoPlayerRuleset()

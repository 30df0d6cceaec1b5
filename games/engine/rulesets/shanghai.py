"""shanghai — placeholder Ruleset; its owner fills in play, restrictions and scoring."""

from __future__ import annotations

from games.engine.rulesets.base import Ruleset


class ShanghaiRuleset(Ruleset):
    id = "shanghai"


RULESET = ShanghaiRuleset()

"""yihua — placeholder Ruleset; its owner fills in play, restrictions and scoring."""

from __future__ import annotations

from games.engine.rulesets.base import Ruleset


class YihuaRuleset(Ruleset):
    id = "yihua"


RULESET = YihuaRuleset()

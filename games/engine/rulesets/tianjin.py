"""tianjin — placeholder Ruleset; its owner fills in play, restrictions and scoring."""

from __future__ import annotations

from games.engine.rulesets.base import Ruleset


class TianjinRuleset(Ruleset):
    id = "tianjin"
    has_flowers = False
    has_chi = False
    win_on_discard = False


RULESET = TianjinRuleset()

"""A player's statistics per variant over their reviewed hands (the profile), with a chart.

Only reviews of the current reviewer version count: a review made by another version judged with
other measures, and one hand is counted once.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games.engine.review import REVIEWER_VERSION
from games.review.models import HandReview

WINDOW = 10  # hands in the chart's moving average
WIDTH, HEIGHT = 600, 160


@dataclass
class VariantStats:
    variant: str
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    win_points: int = 0
    rated: int = 0
    agreed: int = 0
    loss: float = 0.0
    series: list[tuple[int, int, float]] = field(default_factory=list)  # (rated, agreed, loss) per hand

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.hands if self.hands else None

    @property
    def self_draw_share(self) -> float | None:
        return self.self_draws / self.wins if self.wins else None

    @property
    def deal_in_rate(self) -> float | None:
        return self.deal_ins / self.hands if self.hands else None

    @property
    def average_win(self) -> float | None:
        return self.win_points / self.wins if self.wins else None

    @property
    def agreement(self) -> float | None:
        return self.agreed / self.rated if self.rated else None

    @property
    def loss_per_decision(self) -> float | None:
        return self.loss / self.rated if self.rated else None

    def as_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "hands": self.hands,
            "win_rate": _round(self.win_rate),
            "self_draw_share": _round(self.self_draw_share),
            "deal_in_rate": _round(self.deal_in_rate),
            "average_win": _round(self.average_win),
            "agreement": _round(self.agreement),
            "loss_per_decision": _round(self.loss_per_decision),
        }

    @property
    def chart(self) -> dict[str, Any] | None:
        """Moving averages over the last `WINDOW` hands, oldest first: the agreement rate
        (0–100 %) and the loss per decision (0 to its highest), as SVG polyline points."""
        if len(self.series) < 2:
            return None
        agreement, loss = [], []
        for i in range(len(self.series)):
            window = self.series[max(0, i - WINDOW + 1) : i + 1]
            rated = sum(r for r, _a, _l in window)
            agreement.append(sum(a for _r, a, _l in window) / rated if rated else 0.0)
            loss.append(sum(lo for _r, _a, lo in window) / rated if rated else 0.0)
        top = max(loss) or 1.0
        return {
            "width": WIDTH,
            "height": HEIGHT,
            "agreement": _points(agreement, 1.0),
            "loss": _points(loss, top),
            "loss_top": round(top, 2),
            "count": len(self.series),
        }


def _round(x: float | None) -> float | None:
    return round(x, 4) if x is not None else None


def _points(values: list[float], top: float) -> str:
    n = len(values)
    pad = 4
    return " ".join(
        f"{pad + i * (WIDTH - 2 * pad) / (n - 1):.1f},{HEIGHT - pad - v / top * (HEIGHT - 2 * pad):.1f}"
        for i, v in enumerate(values)
    )


def player_stats(user: AbstractBaseUser) -> list[VariantStats]:
    """Per variant (most played first), over the player's ready reviews of their own seat."""
    rows = (
        HandReview.objects.filter(user=user, version=REVIEWER_VERSION, status=HandReview.Status.READY)
        .order_by("hand_ended", "pk")
        .values_list("variant", "won", "self_drawn", "dealt_in", "win_points", "rated", "agreed", "loss")
    )
    by_variant: dict[str, VariantStats] = defaultdict(lambda: VariantStats(""))
    for variant, won, self_drawn, dealt_in, win_points, rated, agreed, loss in rows:
        s = by_variant[variant]
        s.variant = variant
        s.hands += 1
        s.wins += won
        s.self_draws += self_drawn
        s.deal_ins += dealt_in
        s.win_points += win_points or 0
        s.rated += rated
        s.agreed += agreed
        s.loss += loss
        s.series.append((rated, agreed, loss))
    return sorted(by_variant.values(), key=lambda s: -s.hands)


def profile_stats(user: AbstractBaseUser, viewer: AbstractBaseUser | None) -> list[VariantStats] | None:
    """The statistics the profile shows: to the player and staff only (None to anyone else).
    The player's own visit starts the review of their latest unreviewed hands, so the figures
    follow their play without their opening each review."""
    own = viewer is not None and viewer.pk == user.pk
    if not own and not (viewer is not None and viewer.is_staff):
        return None
    if own:
        from games.review.services import queue_unreviewed

        queue_unreviewed(user)
    return player_stats(user)

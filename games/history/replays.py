"""Replays of finished hands: the seed, the ordered action log and the full state after each step;
the open records of hands and matches (docs/record-format.md) and the viewer of uploaded ones.

DESIGN principle 5: a view of a hand in progress never shows a concealed tile. A replay or a record
is only built once the hand is over, so it may open every hand at every step and reveal the salt
and the wall behind the commitment (docs/fairness.md).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from games.engine import record as records
from games.engine.actions import Action, apply, new_hand
from games.engine.rulesets import get_ruleset
from games.engine.state import HandState
from games.engine.view import view_for
from games.engine.wall import deal_wall, wall_text
from games.history.queries import behind_the_delay, may_see_hand, visible_matches
from games.history.replay_text import replay_text
from games.models import Hand, HandAction, Match
from games.rendering.board import bot_name
from games.rendering.labels import pattern_name


class ReplayRefused(Exception):
    """`code` is "not_found" (no such hand, or not for this viewer) or "hand_in_progress"."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def replayable_hand(hand_id: int, viewer: AbstractBaseUser | None) -> Hand:
    """The hand if `viewer` may replay it now; a hand in progress never may."""
    hand = Hand.objects.select_related("table", "match").filter(pk=hand_id).first()
    if hand is None or not may_see_hand(hand, viewer):
        raise ReplayRefused("not_found")
    if hand.status != Hand.Status.OVER or behind_the_delay(hand, viewer):
        raise ReplayRefused("hand_in_progress")  # (behind the delay: as if still playing)
    return hand


def full_view(state: HandState) -> dict[str, Any]:
    """Every seat's own view joined into one: all concealed hands open. Finished hands only."""
    out = view_for(state, None)
    out["seats"] = [view_for(state, seat)["seats"][seat] for seat in range(state.num_players)]
    for seat in out["seats"]:
        seat.pop("forbidden", None)
    out.pop("me", None)
    out.pop("my_move", None)
    return out


def build(hand: Hand) -> dict[str, Any]:
    """The seed, the actions and the full view before the first and after every action."""
    assert hand.status == Hand.Status.OVER, "only finished hands are replayed"
    rows = list(HandAction.objects.filter(hand=hand).order_by("seq").values("seq", "seat", "action", "actor"))
    state = new_hand(hand.table.variant, hand.seed, **hand.setup)
    steps = [{"seq": 0, "seat": None, "action": None, "view": full_view(state)}]
    salt = hand.setup.get("salt")
    for row in rows:
        state, events = apply(state, row["seat"], Action.from_json(row["action"]))
        steps.append({**row, "events": events, "view": full_view(state)})
    return {
        "hand": hand.pk,
        "table": hand.table_id,
        "match": hand.match_id,
        "number": hand.number,
        "variant": hand.table.variant,
        "seed": str(hand.seed),  # 62-bit: a string, so JavaScript keeps every digit
        "setup": hand.setup,
        # the reveal: sha256(salt + ":" + wall) is the commitment shown from the deal on
        "commitment": state.commitment or None,
        "salt": salt,
        "wall": wall_text(deal_wall(get_ruleset(hand.table.variant).wall_tiles(), hand.seed, salt)[2]),
        "players": players(hand),
        "actions": rows,
        "steps": steps,
        "result": hand.result,
        "pattern_names": pattern_names(hand.table.variant, hand.result or {}),
        "settlement": hand.settlement,
        "closed_by_admin": (hand.result or {}).get("by") == "admin_closed",
    }


def pattern_names(variant: str, result: dict[str, Any]) -> dict[str, dict[str, str]]:
    """id → names (and the rules page link) of every pattern the result's scores name,
    as the variant's catalogue names them (the settlement screen shows the same)."""
    ids = {pid for score in result.get("scores", []) for pid in score.get("patterns", [])}
    return {pid: pattern_name(pid, variant) for pid in sorted(ids)}


def players(hand: Hand) -> list[str]:
    """Each seat's name as the table showed it (a bot: 机器人 <seat + 1>, as games.rendering.presenters)."""
    ids = [uid for uid in hand.match.players or [] if uid is not None]
    names = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))
    return [
        names.get(uid, "?") if uid is not None else f"机器人 {index + 1}"
        for index, uid in enumerate(hand.match.players or [])
    ]


# --- open records (docs/record-format.md) ------------------------------------------------------


def hand_record(hand: Hand) -> dict[str, Any]:
    """The open record of a finished hand; a hand dealt before commitments carries its seed."""
    assert hand.status == Hand.Status.OVER, "only finished hands have records"
    rows = HandAction.objects.filter(hand=hand).order_by("seq").values_list("seat", "action", "actor")
    meta = {
        "site_hand": hand.pk,
        "match": hand.match_id,
        "table": hand.table_id,
        "number": hand.number,
        "ended": hand.ended.isoformat() if hand.ended else None,
    }
    return records.hand_record(
        hand.table.variant,
        hand.seed,
        hand.setup,
        [(seat, action, actor) for seat, action, actor in rows],
        players(hand),
        meta=meta,
        settlement=hand.settlement,
        closed_by_admin=(hand.result or {}).get("by") == records.ADMIN_CLOSED,
    )


def visible_match(match_id: int, viewer: AbstractBaseUser | None) -> Match:
    match = Match.objects.select_related("table").filter(visible_matches(viewer), pk=match_id).first()
    if match is None:
        raise ReplayRefused("not_found")
    return match


def match_record(match: Match, viewer: AbstractBaseUser | None = None) -> dict[str, Any]:
    """The match header and the record of every finished hand `viewer` may see (a hand in
    progress, or one still behind the spectator delay, is left out)."""
    finished = match.hands.filter(status=Hand.Status.OVER).select_related("table", "match")
    hands = [h for h in finished.order_by("number") if not behind_the_delay(h, viewer)]
    if not hands:
        raise ReplayRefused("no_finished_hand")
    header = {
        "id": match.pk,
        "table": match.table_id,
        "variant": match.table.variant,
        "players": players(hands[0]),
        "started": match.started.isoformat(),
        "ended": match.ended.isoformat() if match.ended else None,
    }
    return records.match_record(header, [hand_record(h) for h in hands])


def for_page(data: dict[str, Any], bots: list[bool], bottom: int = 0) -> dict[str, Any]:
    """Replay data (`build` or `uploaded_replays`) as the viewer page shows it, whichever way the
    hand came: bots named as the live board names them in the viewer's language (the data keeps
    机器人 N), the board turned to `bottom`, and every step, label and score in words
    (games/history/replay_text.py)."""
    names = [
        bot_name(index) if index < len(bots) and bots[index] else name
        for index, name in enumerate(data["players"])
    ]
    page = {**data, "players": names, "bottom": bottom}
    page["text"] = replay_text(page)
    return page


def uploaded_bots(data: dict[str, Any]) -> list[bool]:
    """Which seats of an uploaded record were bots: this site writes a bot as 机器人 <seat + 1>
    (`players`); a record written elsewhere names its players as it likes."""
    return [name == f"机器人 {index + 1}" for index, name in enumerate(data["players"])]


def uploaded_replays(raw: bytes, max_hands: int | None = None) -> list[dict[str, Any]]:
    """Replay data (as `build` gives) for every hand of an uploaded record, through the same
    checks as `python -m games.engine replay`; raises records.RecordError; stores nothing.
    `max_hands`: a match of more hands is refused before any is replayed."""
    record = records.parse_record(raw, max_hands)
    return [replay_data(records.replay_record(hand)) for hand in records.hand_records(record)]


def uploaded_hand(raw: bytes, index: int, max_hands: int | None = None) -> records.ReplayedHand:
    """Hand `index` (from 0) of an uploaded record, replayed through the same checks as
    `uploaded_replays` — only that hand: reviewing one hand of a match replays no other."""
    hands = records.hand_records(records.parse_record(raw, max_hands))
    if not 0 <= index < len(hands):
        raise records.RecordError("bad_hand", f"no hand {index + 1}: this record has {len(hands)}")
    return records.replay_record(hands[index])


def replay_data(replayed: records.ReplayedHand) -> dict[str, Any]:
    rec = replayed.record
    steps = [{"seq": 0, "seat": None, "action": None, "view": full_view(replayed.start)}]
    for n, step in enumerate(replayed.steps, 1):
        action, view = step.action.to_json(), full_view(step.state)
        steps.append({"seq": n, "seat": step.seat, "action": action, "actor": step.actor, "view": view})
    fair = rec["fairness"]
    return {
        "variant": rec["variant"],
        "number": rec.get("meta", {}).get("number"),
        "setup": rec["setup"] if isinstance(rec.get("setup"), dict) else {},
        "players": [p["name"] for p in rec["players"]],
        "actions": steps[1:],
        "steps": steps,
        "result": rec["result"],
        "pattern_names": pattern_names(rec["variant"], rec["result"]),
        "settlement": rec.get("settlement"),
        "commitment": fair.get("commitment"),
        "salt": fair.get("salt"),
        "wall": fair["wall"],
        "closed_by_admin": rec["result"].get("by") == records.ADMIN_CLOSED,
    }

"""Who sees a change (part of the store, games.table.store): everybody (a new `Table.version`)
or only the seats in a claim window (a new revision only)."""

from __future__ import annotations

# Fields a change within a claim window may touch without anybody else seeing it.
UNSEEN_TABLE_FIELDS = frozenset(
    {"version", "revision", "deadline", "deadline_version", "act_since", "decision_version", "pause_until"}
)
UNSEEN_SEAT_FIELDS = frozenset({"pending", "pending_until", "connections"})
PENDING_FIELDS = frozenset({"pending", "pending_until"})  # a claim held (or undone): a claim window's


def seen_by_all(public: bool, in_window: bool, fields: list[tuple[str, str]]) -> bool:
    """Whether a change (`fields`: the (row, field) it touched; `public`: something everybody
    sees happened, `in_window`: an answer was logged within a claim window) is one everybody
    sees or only the seats in a claim window: answers, claims held, undos and the window's end.
    Anything else a change touched makes it public."""
    if public:
        return True
    window = in_window or any(row == "seat" and name in PENDING_FIELDS for row, name in fields)
    if not window:
        return True
    unseen = {"table": UNSEEN_TABLE_FIELDS, "seat": UNSEEN_SEAT_FIELDS}
    return any(name not in unseen[row] for row, name in fields)

"""Actions, legal_actions(state, seat) and apply(state, seat, action).

(The hand machine is being written; the Action type below is stable.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.errors import EngineError
from games.engine.tiles import Tile, format_tiles, name, parse, tile

ACTION_TYPES = (
    "discard",  # tile; ready=True also declares 报听 (two_player)
    "chi",  # tile (the claimed one), tiles (the run, sorted)
    "pong",  # tile
    "kong",  # tile, kind: exposed | added | concealed
    "win",  # self-draw, on a discard, or robbing a kong, as the phase says
    "pass",  # decline the claim options
    "choose",  # pre-hand choice: kind ('zuozhuang' | 'lazhuang'), value (int)
)


@dataclass(frozen=True, order=True)
class Action:
    type: str
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    kind: str = ""
    value: int = 0
    ready: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.tile is not None:
            out["tile"] = name(self.tile)
        if self.tiles:
            out["tiles"] = format_tiles(self.tiles)
        if self.kind:
            out["kind"] = self.kind
        if self.type == "choose":
            out["value"] = self.value
        if self.ready:
            out["ready"] = True
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse a client's action object; EngineError('bad_action') if malformed."""
        if not isinstance(data, dict) or data.get("type") not in ACTION_TYPES:
            raise EngineError("bad_action", f"an action is an object with 'type' one of {', '.join(ACTION_TYPES)}")
        unknown = set(data) - {"type", "tile", "tiles", "kind", "value", "ready"}
        if unknown:
            raise EngineError("bad_action", f"unknown action keys: {', '.join(sorted(unknown))}")
        try:
            t = tile(data["tile"]) if data.get("tile") is not None else None
            ts = tuple(parse(data["tiles"])) if data.get("tiles") else ()
        except EngineError as e:
            raise EngineError("bad_action", e.message) from None
        kind = data.get("kind", "")
        value = data.get("value", 0)
        ready = data.get("ready", False)
        if not isinstance(kind, str) or len(kind) > 20:
            raise EngineError("bad_action", "'kind' must be a short string")
        if isinstance(value, bool) or not isinstance(value, int) or not -10 <= value <= 10:
            raise EngineError("bad_action", "'value' must be a small whole number")
        if not isinstance(ready, bool):
            raise EngineError("bad_action", "'ready' must be true or false")
        return cls(type=data["type"], tile=t, tiles=ts, kind=kind, value=value, ready=ready)

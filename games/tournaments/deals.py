"""The committed salt of a duplicate round and the deals it derives (docs/tournaments.md).

A round's salt is 32 bytes from `secrets` drawn when the tournament is created; its commitment
`sha256(round_salt)` is public from then on, the salt only once the round is over. Deal k of the
round is dealt at every table from the hand salt `sha256(round_salt + ":deal:" + k)`: an ordinary
hand salt (64 hex digits), so each hand's own commitment, reveal and `python -m games.engine
verify` work as for any hand (docs/fairness.md), and anyone holding the revealed round salt can
check that every table's deal k came from it."""

from __future__ import annotations

import hashlib

from games.engine.wall import new_salt


def new_round_salt() -> str:
    return new_salt()


def round_commitment(round_salt: str) -> str:
    """What is published before the round: `printf '%s' SALT | sha256sum`."""
    return hashlib.sha256(round_salt.encode("ascii")).hexdigest()


def deal_salt(round_salt: str, deal: int) -> str:
    """The hand salt of deal `deal` (1, 2, …): `printf '%s' "SALT:deal:K" | sha256sum`."""
    return hashlib.sha256(f"{round_salt}:deal:{deal}".encode("ascii")).hexdigest()

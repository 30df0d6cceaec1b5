"""Creating a tournament: every setting checked (house rules and stake as a table's), the rounds'
salts drawn and committed to at once (docs/tournaments.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clubs.models import Club
from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.table.errors import ServiceError
from games.table.opening import validate_options
from games.table.stake import validate_stake
from games.tournaments import deals
from games.tournaments.access import TournamentError, audit, can_organise, managed_clubs
from games.tournaments.models import Tournament, TournamentRound

LIMITS = {
    "rounds": (1, 12),
    "hands_per_round": (1, 32),
    "wind_rounds": (0, 4),
    "max_players": (2, 256),
    "checkin_minutes": (0, 24 * 60),
    "grace_seconds": (10, 3600),
}


def _whole(data: dict[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool):
        raise TournamentError(f"bad_{key}", _("%(field)s must be a whole number.") % {"field": key})
    try:
        value = int(value)
    except (TypeError, ValueError):
        raise TournamentError(f"bad_{key}", _("%(field)s must be a whole number.") % {"field": key}) from None
    low, high = LIMITS[key]
    if not low <= value <= high:
        message = _("%(field)s must be between %(low)d and %(high)d.") % {
            "field": key,
            "low": low,
            "high": high,
        }
        raise TournamentError(f"bad_{key}", message)
    return value


def _when(value: Any, key: str) -> datetime:
    if isinstance(value, datetime):
        return value if timezone.is_aware(value) else timezone.make_aware(value)
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        raise TournamentError(
            f"bad_{key}", _("%(field)s must be a date and time.") % {"field": key}
        ) from None
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)


def create(organiser: AbstractBaseUser, data: dict[str, Any], now: datetime | None = None) -> Tournament:
    """A new tournament from the organiser's settings, every one checked; its rounds' salts are
    drawn and committed to now."""
    now = now or timezone.now()
    if not can_organise(organiser):
        raise TournamentError("not_organiser", _("Only organisers may create tournaments."))
    name = str(data.get("name", "")).strip()
    if not 1 <= len(name) <= 80:
        raise TournamentError("bad_name", _("Give the tournament a name of at most 80 characters."))
    variant = data.get("variant")
    if variant not in VARIANT_IDS:
        raise TournamentError("unknown_variant", _("Choose one of the rule sets."))
    try:
        options = validate_options(variant, data.get("options"))
        base = validate_stake(variant, data.get("base", 2 if get_ruleset(variant).even_stake else 1))
    except ServiceError as e:
        raise TournamentError(e.code, e.message) from None
    numbers = {key: _whole(data, key, default) for key, default in _DEFAULTS.items()}
    seating = data.get("seating", Tournament.Seating.SWISS)
    if seating not in Tournament.Seating.values:
        raise TournamentError("bad_seating", _("Seating is random or Swiss."))
    starts_at = _when(data.get("starts_at"), "starts_at")
    opens = _when(data.get("signup_opens", now), "signup_opens")
    closes = _when(data.get("signup_closes", starts_at), "signup_closes")
    if starts_at <= now:
        raise TournamentError("bad_starts_at", _("The start must be in the future."))
    if not opens < closes <= starts_at:
        raise TournamentError("bad_signup", _("Sign-up must open before it closes, and close by the start."))
    club = _club(organiser, data.get("club"))
    if club is None and not organiser.is_staff:  # a club's owner or admin runs that club's events
        raise TournamentError("club_required", _("Choose the club whose event this is."))
    flags = {key: data.get(key, default) for key, default in (("duplicate", False), ("public", True))}
    for key, value in flags.items():
        if not isinstance(value, bool):
            raise TournamentError(f"bad_{key}", _("%(field)s must be true or false.") % {"field": key})
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            description=str(data.get("description", ""))[:2000],
            organiser=organiser,
            club=club,
            variant=variant,
            options=options,
            base=base,
            seating=seating,
            starts_at=starts_at,
            signup_opens=opens,
            signup_closes=closes,
            **numbers,
            **flags,
        )
        for number in range(1, tournament.rounds + 1):
            salt = deals.new_round_salt()
            TournamentRound.objects.create(
                tournament=tournament, number=number, salt=salt, commitment=deals.round_commitment(salt)
            )
        audit(organiser, "tournament_create", tournament, club=club.pk if club else None)
    return tournament


def _club(organiser: AbstractBaseUser, value: Any) -> Club | None:
    """The club whose event this is (None: nobody's): one the organiser manages (any, for staff)."""
    if value in (None, ""):
        return None
    club_id = value.pk if isinstance(value, Club) else value
    try:
        club = managed_clubs(organiser).filter(pk=int(club_id)).first()
    except (TypeError, ValueError):
        club = None
    if club is None:
        raise TournamentError("bad_club", _("Choose a club you own or help run."))
    return club


_DEFAULTS = {
    "rounds": 2,
    "hands_per_round": 4,
    "wind_rounds": 0,
    "max_players": 16,
    "checkin_minutes": 30,
    "grace_seconds": 120,
}

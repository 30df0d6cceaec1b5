"""The table page's live parts and the lobby's table list as HTML fragments, in the viewer's
language; the board's text for the errors a socket reports."""

from __future__ import annotations

import contextlib
from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import trans_real

from games.rendering.board import board_model
from games.rendering.labels import VARIANT_NAMES

PARTS = ("table-status", "board", "prompt", "table-side", "settlement")


def language_from_scope(scope: dict[str, Any]) -> str:
    """The viewer's language for a websocket, as LocaleMiddleware picks it for a page:
    the language cookie, then Accept-Language, then LANGUAGE_CODE."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    cookies = SimpleCookie()
    with contextlib.suppress(Exception):
        cookies.load(headers.get("cookie", ""))
    candidates = []
    if settings.LANGUAGE_COOKIE_NAME in cookies:
        candidates.append(cookies[settings.LANGUAGE_COOKIE_NAME].value)
    candidates += [
        code for code, _q in trans_real.parse_accept_lang_header(headers.get("accept-language", ""))
    ]
    for code in candidates:
        with contextlib.suppress(LookupError):
            return trans_real.get_supported_language_variant(code)
    return settings.LANGUAGE_CODE


def _language(code: str | None) -> contextlib.AbstractContextManager[None]:
    return translation.override(code) if code else contextlib.nullcontext()


def render_table_html(context: dict[str, Any], language: str | None = None) -> str:
    """All live parts of the table page for this viewer, each with `hx-swap-oob`.

    `language`: the viewer's (see `language_from_scope`); a socket has no LocaleMiddleware."""
    with _language(language or (context.get("viewer") or {}).get("language")):
        model = board_model(context)
        return render_to_string("games/_table_parts.html", {**model, "oob": True})


# What the board says for an error code the socket reports. The JSON protocol keeps the service's
# English message (API clients read the code); a person reads this, in their own language. A code
# not listed here shows the service's message as it is.
def error_text(code: str) -> str | None:
    texts = {
        "stale_version": _("The table moved on; here is the current state."),
        "not_your_turn": _("It is not your turn."),
        "illegal_action": _("That move is not allowed now."),
        "paused": _("Wait for the short pause after the discard."),
        "seat_taken": _("That seat is taken."),
        "already_seated": _("You already have a seat here."),
        "not_seated": _("You are not seated at this table."),
        "login_required": _("Log in to play."),
        "table_closed": _("The table is closed."),
        "no_table": _("There is no such table."),
        "insufficient_points": _("Not enough points for this stake (50 × the base stake)."),
        "banned": _("You are banned from playing for now."),
        "bad_stake": _("That base stake is not allowed."),
        "stake_unset": _("The base stake has not been set yet."),
        "stake_fixed": _("The base stake is fixed."),
        "not_stake_chooser": _("Another player sets the base stake."),
        "hand_running": _("Not while a hand is being played."),
        "no_hand": _("No hand is being played."),
        "hand_over": _("The hand is over: choose Continue or Leave."),
        "claim_pending": _("Your claim is pending; undo it first."),
        "nothing_to_undo": _("There is no claim to undo."),
        "already_continued": _("You already chose to continue."),
        "already_left": _("You already left; a bot finishes this hand."),
        "left": _("You left this hand."),
        "rate_limited": _("Too many messages; slow down."),
        "too_big": _("That message is too large."),
        "unavailable": _("The server is busy for a moment; try again."),
        "account_changed": _("Your password changed or your account was closed: sign in again."),
        "bad_message": _("That message cannot be sent (it holds a character that is not allowed)."),
        "too_many_seats": _("You sit at as many tables as one account may; leave one of them first."),
        "pong_locked": _("You passed this pong: you can't pong it until your next discard."),
        "win_locked": _("You passed a win: until your next draw you may only win by self-draw."),
        "discard_after_chi": _("吃后不能打这张 — you can't discard this tile right after this chi"),
        "own_discard_lock": _("You discarded this tile since your last draw: you can't win on it."),
        "missed_win_lock": _(
            "You passed a win this go-round: a discard wins only with more fan than the one you passed."
        ),
    }
    return texts.get(code)


def render_error_html(
    code: str, message: str, language: str | None = None, retry_after: int | None = None
) -> str:
    """A short notice swapped into the table page (for errors the socket reports), in the
    viewer's language; `retry_after`: the seconds a `busy` server asked for (board.js waits them
    before reconnecting)."""
    with _language(language):
        text = error_text(code) or message
        context = {"code": code, "message": text, "oob": True, "retry_after": retry_after}
        return render_to_string("games/_notice.html", context)


# --- lobby ----------------------------------------------------------------------------------


def lobby_groups(
    tables: list[dict[str, Any]], variant: str = "", free_only: bool = False
) -> list[dict[str, Any]]:
    """Tables grouped by variant (in the variants' usual order), filtered."""
    groups = []
    for vid, (zh, en) in VARIANT_NAMES.items():
        if variant and vid != variant:
            continue
        rows = [t for t in tables if t["variant"] == vid and (not free_only or t["free"] > 0)]
        groups.append({"id": vid, "zh": zh, "en": en, "tables": rows})
    return groups


def render_lobby_html(
    tables: list[dict[str, Any]], variant: str = "", free_only: bool = False, oob: bool = True
) -> str:
    """The lobby's table list (`#lobby-tables`), for the first load and every live update.

    Each table dict: id, variant, name, owner, base, stake_state, seats_taken, seats_total,
    free, spectators, status (waiting/playing), seats [{index, wind, name, is_bot}].
    """
    return render_to_string(
        "games/_lobby_tables.html",
        {
            "groups": lobby_groups(tables, variant, free_only),
            "oob": oob,
            "variant": variant,
            "free_only": free_only,
            "count": len(tables),
        },
    )

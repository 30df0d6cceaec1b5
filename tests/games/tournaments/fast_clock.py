"""A clock process that plays fast, for tests that start real processes:
`python -m tests.games.tournaments.fast_clock` is `manage.py run_clock --interval 0.05` with bots
and 托管 acting at once, no pause after a discard and a short settlement (the rules of play are
unchanged; only the waits are shorter)."""

from __future__ import annotations

import os

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from games.table import timing
    from games.tournaments import seats, services

    timing.BOT_DELAY = (0.0, 0.01)
    timing.DISCONNECTED_DELAY = 0.0
    timing.SETTLEMENT_SECONDS = 0.3
    services.TABLE_TIMERS.update(min_pause_ms=0, undo_ms=0)
    seats.TOURNAMENT_BOT_LEVEL = "easy"
    call_command("run_clock", interval=0.05)

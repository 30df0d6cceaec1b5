import contextlib
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from common import broadcaster
from games.clock import ticks
from games.moderation.penalties import record_server_start


class Command(BaseCommand):
    help = "Run the table clock: timers, bots and auto-play for every table (make run starts it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--interval", type=float, default=ticks.INTERVAL, help="seconds between ticks")

    def handle(self, *args: Any, **options: Any) -> None:
        record_server_start()  # disconnects from before a restart are nobody's fault
        broadcaster.start_own_loop()  # announcements go out without holding up the ticks
        with contextlib.suppress(KeyboardInterrupt):
            ticks.run(options["interval"])

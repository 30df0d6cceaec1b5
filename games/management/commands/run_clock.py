import contextlib
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import clock


class Command(BaseCommand):
    help = "Run the table clock: timers, bots and auto-play for every table (make run starts it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--interval", type=float, default=clock.INTERVAL, help="seconds between ticks")

    def handle(self, *args: Any, **options: Any) -> None:
        with contextlib.suppress(KeyboardInterrupt):
            clock.run(options["interval"])

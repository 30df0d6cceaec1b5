from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.services import create_api_token


class Command(BaseCommand):
    help = (
        "Print a new personal API token for USERNAME as the last line (only its hash is stored, "
        "so each call makes a new one). --create makes the user first if missing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--create", action="store_true", help="create the user if it does not exist")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        username = options["username"]
        user = User.objects.filter(username=username).first()
        if user is None:
            if not options["create"]:
                raise CommandError(f"no user {username!r} (use --create to make one)")
            user = User.objects.create_user(username=username)  # no password: API only
            self.stderr.write(f"created user {username}")
        self.stdout.write(create_api_token(user))

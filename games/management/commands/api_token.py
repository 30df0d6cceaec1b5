from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.services import active_tokens, create_api_token, revoke_all_tokens


class Command(BaseCommand):
    help = (
        "Print a new personal API token for USERNAME as the last line (only its hash is stored, "
        "so each call makes a new one). --create makes the user first if missing. "
        "--list shows the user's active tokens; --revoke-all revokes every one of them and "
        "closes their open sockets."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--create", action="store_true", help="create the user if it does not exist")
        group = parser.add_mutually_exclusive_group()
        group.add_argument(
            "--list", action="store_true", help="list the active tokens (prefix, created, last used)"
        )
        group.add_argument("--revoke-all", action="store_true", help="revoke every token of the user")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        username = options["username"]
        user = User.objects.filter(username=username).first()
        if user is None:
            if not options["create"] or options["list"] or options["revoke_all"]:
                raise CommandError(f"no user {username!r} (use --create to make one)")
            user = User.objects.create_user(username=username)  # no password: API only
            self.stderr.write(f"created user {username}")
        if options["revoke_all"]:
            self.stdout.write(f"revoked {revoke_all_tokens(user)} token(s) of {username}")
        elif options["list"]:
            for token in active_tokens(user):
                used = token.last_used.isoformat() if token.last_used else "never"
                self.stdout.write(f"{token.prefix}…  created {token.created.isoformat()}  last used {used}")
        else:
            self.stdout.write(create_api_token(user))

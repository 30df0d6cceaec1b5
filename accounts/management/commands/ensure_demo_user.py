from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand

from accounts.services import grant_starting_balance

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "mahjong-demo"


class Command(BaseCommand):
    help = "Create or reset the demo account (demo / mahjong-demo) for local runs."

    def handle(self, *args: Any, **options: Any) -> None:
        user, _created = User.objects.get_or_create(username=DEMO_USERNAME)
        user.set_password(DEMO_PASSWORD)
        user.is_active = True
        user.save()
        grant_starting_balance(user)
        self.stdout.write(f"Demo login: {DEMO_USERNAME} / {DEMO_PASSWORD}")

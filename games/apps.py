from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from accounts import flows
        from games.clubs import admin as clubs_admin  # noqa: F401 - clubs (docs/clubs.md)
        from games.moderation import admin as moderation_admin  # noqa: F401 - extends games.admin
        from games.moderation.ranked_pairs import lopsided_ranked_pairs
        from games.social import (
            admin_announcements,  # noqa: F401 - site-wide announcements
            admin_chat,  # noqa: F401 - table chat
        )

        if lopsided_ranked_pairs not in flows.FLAG_SOURCES:  # (ready() may run twice in tests)
            flows.FLAG_SOURCES.append(lopsided_ranked_pairs)

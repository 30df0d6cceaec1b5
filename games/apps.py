from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from accounts import flows
        from games import (
            admin_announcements,  # noqa: F401 - site-wide announcements
            admin_chat,  # noqa: F401 - table chat
            admin_moderation,  # noqa: F401 - extends games.admin once the admin is set up
        )
        from games.clubs import admin as clubs_admin  # noqa: F401 - clubs (docs/clubs.md)
        from games.ranked_pairs import lopsided_ranked_pairs

        if lopsided_ranked_pairs not in flows.FLAG_SOURCES:  # (ready() may run twice in tests)
            flows.FLAG_SOURCES.append(lopsided_ranked_pairs)

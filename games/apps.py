from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import (
            admin_announcements,  # noqa: F401 - announcements (issue 18)
            admin_chat,  # noqa: F401 - table chat (issue 18)
            admin_moderation,  # noqa: F401 - extends games.admin once the admin is set up
        )

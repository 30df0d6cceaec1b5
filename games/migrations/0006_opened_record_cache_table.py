"""The table that keeps opened record files for their review links (settings.CACHES
`opened_records`, a database cache every server process reads)."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor) -> None:
    call_command(
        "createcachetable", "opened_record_cache", database=schema_editor.connection.alias, verbosity=0
    )


def drop_cache_table(apps, schema_editor) -> None:
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name('opened_record_cache')}")


class Migration(migrations.Migration):
    dependencies = [("games", "0005_tournament_club")]

    operations = [migrations.RunPython(create_cache_table, drop_cache_table)]

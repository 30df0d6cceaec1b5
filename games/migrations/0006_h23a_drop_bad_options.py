"""Issue 23: house-rule options are now checked against each rule set's declared ranges. A table
created before that with a value out of range (two_player `cap: 0`, `escape_penalty: -100000`)
would be refused at its next deal; drop such values so the table plays with the defaults."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def drop_bad_options(apps: Any, schema_editor: Any) -> None:
    from games.engine.errors import EngineError
    from games.engine.rulesets import VARIANT_IDS, get_ruleset

    Table = apps.get_model("games", "Table")
    for table in Table.objects.exclude(options={}).iterator():
        if table.variant not in VARIANT_IDS or not isinstance(table.options, dict):
            continue
        rules = get_ruleset(table.variant)
        kept = {}
        for key, value in table.options.items():
            try:
                kept.update(rules.check_options({key: value}))
            except EngineError:
                continue
        if kept != table.options:
            Table.objects.filter(pk=table.pk).update(options=kept)


class Migration(migrations.Migration):
    dependencies = [("games", "0005_h23a_clock_failures")]

    operations = [migrations.RunPython(drop_bad_options, migrations.RunPython.noop)]

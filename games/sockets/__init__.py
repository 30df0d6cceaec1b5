"""The websockets: `table` (TableConsumer, ws/tables/<id>/), `ping` (ws/ping/), `frames` (the
limits and first checks every frame meets), `watchers` (one per process: the version watcher,
the heartbeat, the end of a pause)."""

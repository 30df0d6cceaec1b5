"""Clubs (亲友圈): groups of players with their own private tables, members and leaderboard
(docs/clubs.md). `models` holds the rows, `services` every change, `membership` the checks the
table access rule shares, `views`/`api` the pages and the JSON API."""

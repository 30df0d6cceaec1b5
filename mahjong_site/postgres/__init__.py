"""Django's PostgreSQL backend, its connection pool checking connections without a round trip and
a cursor that prepares its statements (mahjong_site/postgres/base.py)."""

"""Django's PostgreSQL backend, its connection pool checking connections without a round trip
(`base.check_without_round_trip`)."""

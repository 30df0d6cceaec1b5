#!/bin/sh
# compose.yaml, `ha` profile: let the streaming replica (postgres-replica) connect for replication.
# Run by the postgres image on its first start (/docker-entrypoint-initdb.d); an existing
# database needs the same line added to its pg_hba.conf by hand (docs/operations.md).
set -e
echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"

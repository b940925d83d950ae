#!/bin/sh
# Creates Temporal's two PostgreSQL databases (persistence and visibility) when missing and brings
# their schemas to the release of temporal-sql-tool, whose schemas are embedded in it: the tool of
# the same release as the server. Run by docker-compose.yml's one-shot temporal-schema job
# (temporalio/admin-tools) and by `npm run stack:production` (the tool built from go.temporal.io/server).
# Idempotent: an existing database is kept and only updated to the newer schema versions.
#
#   env: POSTGRES_SEEDS, DB_PORT (5432), POSTGRES_USER, POSTGRES_PWD   where PostgreSQL is, as whom
#        DB (postgres12), DBNAME (temporal), VISIBILITY_DBNAME (temporal_visibility)  as deploy/temporal/server.env
#        TEMPORAL_SQL_TOOL   the tool's path (default: temporal-sql-tool on PATH)
set -eu

tool=${TEMPORAL_SQL_TOOL:-temporal-sql-tool}
export SQL_PLUGIN="${DB:-postgres12}"
export SQL_HOST="${POSTGRES_SEEDS:?set POSTGRES_SEEDS to PostgreSQL's host}"
export SQL_PORT="${DB_PORT:-5432}"
export SQL_USER="${POSTGRES_USER:?set POSTGRES_USER}"
export SQL_PASSWORD="${POSTGRES_PWD:?set POSTGRES_PWD}"

# setup <database> <embedded schema: temporal or visibility>
setup() {
  if "$tool" --db "$1" setup-schema -v 0.0 >/dev/null 2>&1; then
    :
  else
    # Most likely missing: create it (as a user with CREATEDB), then set up the versioning tables.
    "$tool" --db "$1" create-database
    "$tool" --db "$1" setup-schema -v 0.0
  fi
  "$tool" --db "$1" update-schema --schema-name "postgresql/v12/$2"
  echo "temporal-schema: $1 is at the schema of this release ($2)"
}

setup "${DBNAME:-temporal}" temporal
setup "${VISIBILITY_DBNAME:-temporal_visibility}" visibility

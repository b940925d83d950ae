import { psql } from '../../src/devstack/production/postgresql';

/**
 * What PostgreSQL did, from its cumulative statistics: commits and rows written per database
 * (pg_stat_database), and the WAL written by the whole instance (pg_current_wal_lsn). Every
 * reading is a new psql session, so no statistics snapshot of an earlier reading is reused.
 */

export interface DbActivity {
  commits: number;
  inserted: number;
  updated: number;
  deleted: number;
}

export interface PgReading {
  byDatabase: Record<string, DbActivity>;
  /** WAL position, in bytes from the start of the instance's WAL. */
  walBytes: number;
  /** Full-page images written to the WAL so far (pg_stat_wal): the first change of a page after each checkpoint. */
  walFullPageImages: number;
}

/** Temporal's databases (deploy/temporal/server.env: DBNAME, VISIBILITY_DBNAME) and the store's. */
export const DATABASE_GROUPS = { temporal: ['temporal', 'temporal_visibility'], ferretdb: ['ferretdb'] } as const;

export interface PgAccess {
  port: number;
  superuserPassword: string;
}

export function readPg(pg: PgAccess): PgReading {
  const rows = psql(
    pg.port,
    pg.superuserPassword,
    "SELECT datname, xact_commit, tup_inserted, tup_updated, tup_deleted, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') FROM pg_stat_database WHERE datname IS NOT NULL",
  );
  const byDatabase: Record<string, DbActivity> = {};
  let walBytes = 0;
  for (const line of rows.split('\n').filter(Boolean)) {
    const [name, commits, inserted, updated, deleted, wal] = line.split('|');
    byDatabase[name!] = {
      commits: Number(commits),
      inserted: Number(inserted),
      updated: Number(updated),
      deleted: Number(deleted),
    };
    walBytes = Number(wal);
  }
  const walFullPageImages = Number(psql(pg.port, pg.superuserPassword, 'SELECT wal_fpi FROM pg_stat_wal'));
  return { byDatabase, walBytes, walFullPageImages };
}

/** A group's activity between two readings (the sum over its databases). */
export function groupDelta(before: PgReading, after: PgReading, databases: readonly string[]): DbActivity {
  const sum = (r: PgReading, k: keyof DbActivity) => databases.reduce((n, db) => n + (r.byDatabase[db]?.[k] ?? 0), 0);
  return {
    commits: sum(after, 'commits') - sum(before, 'commits'),
    inserted: sum(after, 'inserted') - sum(before, 'inserted'),
    updated: sum(after, 'updated') - sum(before, 'updated'),
    deleted: sum(after, 'deleted') - sum(before, 'deleted'),
  };
}

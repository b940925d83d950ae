import type { Db } from 'mongodb';

interface MigrationMarker {
  _id: string;
  finishedAt: Date;
}

/**
 * Runs a start-up migration that reads whole collections once per store, not at every start: a
 * marker in `migrations` records that it finished (a crash before the marker only means it runs
 * again, and each migration is idempotent). Processes of the new version never write the old form,
 * so after a rolling upgrade one restart once the last old process has stopped migrates what those
 * wrote meanwhile: delete the marker first (docs/operators/data-at-rest.md).
 */
export async function migrateOnce(db: Db, id: string, now: Date, migrate: () => Promise<unknown>): Promise<boolean> {
  const markers = db.collection<MigrationMarker>('migrations');
  if (await markers.findOne({ _id: id })) return false;
  await migrate();
  await markers.updateOne({ _id: id }, { $setOnInsert: { finishedAt: now } }, { upsert: true });
  return true;
}

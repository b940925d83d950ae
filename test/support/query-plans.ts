import assert from 'node:assert/strict';
import { BSON, type Db, type Document } from 'mongodb';

/** Explains a find command as sent (FerretDB's explain takes skip and limit only as 64-bit). */
export function explainFind(db: Db, find: Document): Promise<Document> {
  const { find: coll, filter, sort, skip, limit } = find;
  return db.command({
    explain: {
      find: coll,
      filter,
      ...(sort ? { sort } : {}),
      ...(typeof skip === 'number' ? { skip: BSON.Long.fromNumber(skip) } : {}),
      ...(typeof limit === 'number' ? { limit: BSON.Long.fromNumber(limit) } : {}),
    },
    verbosity: 'queryPlanner',
  });
}

/** SQLite's plan rows as FerretDB reports them; undefined on MongoDB. */
export function sqlitePlan(explain: Document): string[] | undefined {
  return (explain.queryPlanner as { Plan?: string[] } | undefined)?.Plan;
}

/**
 * FerretDB: SQLite searches the index (`SEARCH ... USING INDEX <table>_<name>`), scans nothing and,
 * when ordered, sorts nothing (no temporary B-tree) and says the sort was pushed down.
 * MongoDB: the winning plan uses the index, no collection scan, and no SORT stage when ordered.
 */
export function assertIndexSearch(explain: Document, index: string, o: { ordered: boolean }): void {
  const plan = sqlitePlan(explain);
  if (plan) {
    const shown = JSON.stringify(plan);
    assert.ok(
      plan.some((row) => new RegExp(`detail=SEARCH \\S+ USING INDEX \\S+_${index} `).test(row)),
      `expected a search of ${index}, got ${shown}`,
    );
    assert.ok(!plan.some((row) => /detail=SCAN /.test(row)), `expected no table scan, got ${shown}`);
    assert.equal(explain.filterPushdown, true);
    if (o.ordered) {
      assert.ok(!plan.some((row) => /TEMP B-TREE/.test(row)), `expected rows in index order, got ${shown}`);
      assert.equal(explain.sortPushdown, true, 'the sort is pushed down');
    }
    return;
  }
  const winning = JSON.stringify(explain.queryPlanner?.winningPlan ?? explain);
  assert.match(winning, new RegExp(`"indexName":"${index}"`), `expected ${index}, got ${winning}`);
  assert.doesNotMatch(winning, /COLLSCAN/);
  if (o.ordered) assert.doesNotMatch(winning, /"stage":"SORT"/);
}

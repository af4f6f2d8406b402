import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from './client';

/**
 * Drizzle's migrator applies, on a database that has migrations already, only those whose journal
 * time is later than the last one applied. A migration generated on a branch with an earlier
 * clock than one merged before it would be skipped on every existing install, silently.
 */
describe('the migrations journal', () => {
  it('has strictly increasing times in the order of the migrations', () => {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
      entries: { idx: number; tag: string; when: number }[];
    };
    const outOfOrder = journal.entries.filter((entry, i) => i > 0 && entry.when <= journal.entries[i - 1]!.when).map((e) => e.tag);
    expect(outOfOrder).toEqual([]);
    expect(journal.entries.map((e) => e.idx)).toEqual(journal.entries.map((_, i) => i));
  });
});

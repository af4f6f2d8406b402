import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECISIONS_DIR, INDEX_FILE, missingLinks, parseDecision, readDecisions, renderIndex } from '../scripts/decisions-index';

/** The decision records and their index (docs/decisions/README.md, made by `npm run decisions:index`). */
describe('the decision records', () => {
  const decisions = readDecisions();

  it('each have a date and a status line, and an amended record names each record that amends it', () => {
    expect(decisions.length).toBeGreaterThan(80);
    expect(missingLinks(decisions)).toEqual([]);
  });

  it('are all in the generated index, as the generator writes it today', () => {
    const index = readFileSync(path.join(DECISIONS_DIR, INDEX_FILE), 'utf8');
    for (const d of decisions) expect(index).toContain(`](${d.file})`);
    expect(index, 'docs/decisions/README.md is out of date: run npm run decisions:index').toBe(renderIndex(decisions));
  });

  it('the check fails for a record without a status and for an amendment not named back', () => {
    const earlier = parseDecision('100-first.md', '# 100 — First\n\nDate: 2026-11-21\nStatus: accepted\n');
    const later = parseDecision('120-second.md', '# 120 — Second\n\nDate: 2026-11-22\nStatus: accepted (amends 100; issue 26 parts 1 and 4; CONTRACT §110)\n');
    const bare = parseDecision('130-bare.md', '# 130. Bare\n\n## Context\n');
    expect(later.amends).toEqual([100]);
    expect(bare.title).toBe('Bare');
    expect(missingLinks([earlier, later, bare])).toEqual([
      '100-first.md: amended by 120, but its status line does not say so',
      '130-bare.md: no "Status:" line',
      '130-bare.md: no "Date:" line',
    ]);
    const named = parseDecision('100-first.md', '# 100 — First\n\nDate: 2026-11-21\nStatus: accepted; amended by 120\n');
    expect(missingLinks([named, later])).toEqual([]);
  });
});

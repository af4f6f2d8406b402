import { describe, expect, it } from 'vitest';
import { shortcutOf } from './desk-shortcuts';

describe('shortcutOf', () => {
  it('moves with j/k and the arrows, opens with Enter, picks with x and searches with /', () => {
    expect(shortcutOf('j')).toEqual({ kind: 'move', by: 1 });
    expect(shortcutOf('ArrowDown')).toEqual({ kind: 'move', by: 1 });
    expect(shortcutOf('k')).toEqual({ kind: 'move', by: -1 });
    expect(shortcutOf('ArrowUp')).toEqual({ kind: 'move', by: -1 });
    expect(shortcutOf('Enter')).toEqual({ kind: 'open' });
    expect(shortcutOf('x')).toEqual({ kind: 'pick' });
    expect(shortcutOf('/')).toEqual({ kind: 'search' });
  });

  it('presets the status dialog with a/u/r/c/p (CONTRACT §14)', () => {
    expect(['a', 'u', 'r', 'c', 'p'].map((key) => shortcutOf(key))).toEqual(
      ['approved', 'under_review', 'rejected', 'completed', 'pending'].map((status) => ({ kind: 'status', status })),
    );
  });

  it('ignores every other key, upper case and inherited property names included', () => {
    for (const key of ['A', 'J', 'q', 'Escape', ' ', 'toString', 'constructor']) expect(shortcutOf(key)).toBeNull();
  });
});

import { useEffect, useRef } from 'react';
import type { AdminSettableStatus } from '@shared/submissions';

/** What a key does on the desk (CONTRACT §14); a/u/r/c/p open the status dialog preset. */
type DeskShortcut =
  | { kind: 'move'; by: 1 | -1 }
  | { kind: 'open' }
  | { kind: 'pick' }
  | { kind: 'search' }
  | { kind: 'status'; status: AdminSettableStatus };

const STATUS_KEYS: Readonly<Record<string, AdminSettableStatus>> = { a: 'approved', u: 'under_review', r: 'rejected', c: 'completed', p: 'pending' };

/** The shortcut a key stands for, or null: j/k (or the arrows) move, Enter opens, x picks, / searches. */
export function shortcutOf(key: string): DeskShortcut | null {
  if (key === 'j' || key === 'ArrowDown') return { kind: 'move', by: 1 };
  if (key === 'k' || key === 'ArrowUp') return { kind: 'move', by: -1 };
  if (key === 'Enter') return { kind: 'open' };
  if (key === 'x') return { kind: 'pick' };
  if (key === '/') return { kind: 'search' };
  const status = Object.hasOwn(STATUS_KEYS, key) ? STATUS_KEYS[key] : undefined;
  return status ? { kind: 'status', status } : null;
}

/** A key typed into a field, or while a dialog is open, is not a shortcut. */
function isTyping(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  // A closing dialog stays in the page, data-state="closed", while it animates out.
  if (document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]')) return true;
  return !!target?.closest('input, textarea, select, [contenteditable="true"], [role="combobox"], [role="listbox"]');
}

/**
 * Runs the desk's single-key shortcuts while the page shows rows. `onShortcut` is read at the time
 * of the key, so it always sees the rows and picks of the latest render.
 */
export function useDeskShortcuts(enabled: boolean, onShortcut: (shortcut: DeskShortcut, event: KeyboardEvent) => void): void {
  const latest = useRef(onShortcut);
  useEffect(() => {
    latest.current = onShortcut;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event)) return;
      const shortcut = shortcutOf(event.key);
      if (!shortcut) return;
      latest.current(shortcut, event);
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}

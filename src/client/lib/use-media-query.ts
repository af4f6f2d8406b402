import { useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches now, following live changes (a phone turned sideways). For
 * layouts that differ in structure, not just style: rendering one of them keeps a single set of
 * labelled controls in the page, where hiding the other with CSS would leave two.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const media = window.matchMedia(query);
      media.addEventListener('change', onChange);
      return () => media.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
  );
}

/** Tailwind's `md` breakpoint (48rem): below it the desk shows cards and dialogs open as sheets. */
export const WIDE_SCREEN_QUERY = '(min-width: 48rem)';

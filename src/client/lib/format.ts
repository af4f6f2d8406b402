/** Formatters shared by every screen. SPEC fixes en-US for dates. */

/**
 * A formatter made on its first use, not as the module loads: making one is slow the first time
 * (the browser reads the locale's data), 80–95 ms of a first /dashboard on Lighthouse's phone CPU
 * (decision 202).
 */
function lazyFormat(options: Intl.DateTimeFormatOptions): (date: Date) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (date) => (format ??= new Intl.DateTimeFormat('en-US', options)).format(date);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * en-US's long date ("November 21, 2026") written out, as Intl's `dateStyle: 'long'` writes it
 * (format.test.ts holds the two equal): the dashboard's rows show one on every first load, and
 * this spares that load the locale data above (decision 202).
 */
const longDate = (date: Date) => `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
const longDateTime = lazyFormat({
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

function toDate(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "November 21, 2026"; `fallback` when the value is missing or not a date. */
export function formatLongDate(value: Date | string | number | null | undefined, fallback = 'Unknown date'): string {
  const date = toDate(value);
  return date ? longDate(date) : fallback;
}

/** "November 21, 2026 at 3:07 PM"; `fallback` when the value is missing or not a date. */
export function formatLongDateTime(value: Date | string | number | null | undefined, fallback = 'Unknown date'): string {
  const date = toDate(value);
  return date ? longDateTime(date) : fallback;
}

/** "1 character image", "3 character images": a count with its noun made plural when it should be. */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

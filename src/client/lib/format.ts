/** Formatters shared by every screen. SPEC fixes en-US for dates. */

const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
const longDateTime = new Intl.DateTimeFormat('en-US', {
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
  return date ? longDate.format(date) : fallback;
}

/** "November 21, 2026 at 3:07 PM"; `fallback` when the value is missing or not a date. */
export function formatLongDateTime(value: Date | string | number | null | undefined, fallback = 'Unknown date'): string {
  const date = toDate(value);
  return date ? longDateTime.format(date) : fallback;
}

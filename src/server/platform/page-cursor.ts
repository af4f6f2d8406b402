import { apiError } from './errors';

/**
 * Keyset paging cursors: the sort key of the last row of a page (a timestamp as PostgreSQL
 * prints it, microseconds kept, and an id), opaque to clients as base64url. The next page is
 * everything strictly after that key, so rows added meanwhile never shift or repeat a page.
 */
interface PageKey {
  /** `timestamptz::text` of the last row; a JavaScript Date would drop the microseconds. */
  at: string;
  id: string;
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(?:([+-])(\d{2})(?::(\d{2}))?|Z)?$/;

/**
 * Whether PostgreSQL can read `text` as a timestamptz: the right shape, and every part in its
 * range (a month 13, a day 45, a year 0000 or an offset of +99:99 have the shape but fail in
 * the database as a 500, CONTRACT §23).
 */
function isStorableTimestamp(text: string): boolean {
  const parts = TIMESTAMP.exec(text);
  if (!parts) return false;
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  // Day 31 of a 30-day month rolls over into the next one.
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  if (date.getUTCDate() !== day) return false;
  const offsetHours = parts[9] === undefined ? 0 : Number(parts[9]);
  const offsetMinutes = parts[10] === undefined ? 0 : Number(parts[10]);
  return offsetHours <= 15 && offsetMinutes <= 59;
}

export function encodeCursor(key: PageKey): string {
  return Buffer.from(JSON.stringify([key.at, key.id])).toString('base64url');
}

/** The key in a cursor, or a 400 `invalid_cursor` for anything the server did not make. */
export function decodeCursor(cursor: string): PageKey {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2) {
      const [at, id] = value as unknown[];
      if (typeof at === 'string' && isStorableTimestamp(at) && typeof id === 'string' && id.length > 0 && id.length <= 100 && !id.includes('\0')) {
        return { at, id };
      }
    }
  } catch {
    // falls through to the refusal
  }
  throw apiError('invalid_cursor');
}

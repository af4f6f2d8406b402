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

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)?$/;

export function encodeCursor(key: PageKey): string {
  return Buffer.from(JSON.stringify([key.at, key.id])).toString('base64url');
}

/** The key in a cursor, or a 400 `invalid_cursor` for anything the server did not make. */
export function decodeCursor(cursor: string): PageKey {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2) {
      const [at, id] = value as unknown[];
      if (typeof at === 'string' && TIMESTAMP.test(at) && typeof id === 'string' && id.length > 0 && id.length <= 100 && !id.includes('\0')) {
        return { at, id };
      }
    }
  } catch {
    // falls through to the refusal
  }
  throw apiError('invalid_cursor');
}

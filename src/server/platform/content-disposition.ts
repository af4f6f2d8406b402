import contentDisposition from 'content-disposition';

/**
 * The `Content-Disposition` of a download (RFC 6266), made by the `content-disposition` package
 * everywhere one is sent: `attachment; filename="…"`, and for a name outside printable ASCII an
 * ASCII fallback plus `filename*=UTF-8''…`. Quotes, backslashes and control characters never
 * reach the header as they are.
 */
export function attachment(fileName: string): string {
  // The plain `filename` kept to printable ASCII (what every client and proxy reads alike); the
  // package adds the exact name as `filename*` whenever that differs.
  return contentDisposition(fileName, { type: 'attachment', fallback: fileName.replace(/[^\x20-\x7e]/g, '_') });
}

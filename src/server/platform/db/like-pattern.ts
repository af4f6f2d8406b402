/** A case-insensitive substring search's ILIKE pattern: `%`, `_` and `\` in it are literal characters, not wildcards. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

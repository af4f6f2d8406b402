/**
 * The whole data model of SPEC §3, plus what the contract needs around it (uploads, payment
 * events, history, login throttling). Ids are application-made UUID strings kept as text, so a
 * malformed id in a URL is simply "not found" rather than a database type error.
 *
 * One file per area (decision 200), each table with its doc comment; this index re-exports them
 * all, so `platform/db/schema` is imported as one module and drizzle.config.ts reads this file.
 */
export * from './accounts';
export * from './submissions';
export * from './revisions';
export * from './agreements';
export * from './production';
export * from './payees';
export * from './messages';
export * from './uploads';
export * from './billing';
export * from './notifications';
export * from './webhooks';

export const UNSTORABLE_NUMBER_MESSAGE = 'This number is too small or too large to store';

/**
 * The smallest magnitude a PostgreSQL `real` holds (FLT_MIN): anything nearer zero but not zero
 * (1e-46, 1e-320, 5e-324) is "out of range for type real" in the database.
 */
const SMALLEST_STORABLE = 1.1754943508222875e-38;

/**
 * Whether a JSON number can reach any column as it is (CONTRACT §23, "every number field refuses
 * what it cannot store"): finite, not nearer zero than a `real` holds, not larger than an integer
 * JavaScript keeps exactly (and so within `bigint`). Checked here for every route and field at
 * once, rather than field by field in the schemas, so a field added later cannot forget it; the
 * schemas still set each field's own range.
 */
export function isStorableNumber(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const magnitude = Math.abs(value);
  return magnitude === 0 || (magnitude >= SMALLEST_STORABLE && magnitude <= Number.MAX_SAFE_INTEGER);
}

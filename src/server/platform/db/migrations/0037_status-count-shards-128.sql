-- Decision 208: the status counters in 128 shards instead of 16 (decision 186). A transaction
-- that adds a submission holds its shard's counter row from its insert to its commit, so two such
-- transactions in the same shard still queue. Under the capacity bench with two instances on one
-- PostgreSQL (150 artists, a slow 2-core machine), sampling pg_stat_activity found half the samples
-- of an active statement were inserts into "submissions" waiting on another submission's
-- transaction: with 16 shards and seven such transactions open at once, one in three meets another
-- in its shard. With 128 it is about one in twenty. The function is restated whole (a migration
-- cannot amend part of one); only the modulus differs from migration 0030's. A status's count is still the sum of its shards: at most 128
-- tiny rows a status. Rows already in shards 0–15 keep counting.
CREATE OR REPLACE FUNCTION submission_status_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s smallint := txid_current() % 128;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO submission_status_counts AS c (status, shard, count)
      SELECT status, s, count(*) FROM new_rows GROUP BY status ORDER BY status
      ON CONFLICT (status, shard) DO UPDATE SET count = c.count + excluded.count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO submission_status_counts AS c (status, shard, count)
      SELECT status, s, -count(*) FROM old_rows GROUP BY status ORDER BY status
      ON CONFLICT (status, shard) DO UPDATE SET count = c.count + excluded.count;
  ELSE
    INSERT INTO submission_status_counts AS c (status, shard, count)
      SELECT status, s, sum(delta) FROM (
        SELECT status, -1 AS delta FROM old_rows
        UNION ALL
        SELECT status, 1 AS delta FROM new_rows
      ) changes
      GROUP BY status HAVING sum(delta) <> 0 ORDER BY status
      ON CONFLICT (status, shard) DO UPDATE SET count = c.count + excluded.count;
  END IF;
  RETURN NULL;
END
$$;

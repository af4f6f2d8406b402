-- Decision 186: the status counters (migration 0003) in shards. Every transaction that adds,
-- removes or moves a submission updated its status's one counter row and held that row locked
-- until it committed, so all such transactions queued behind each other, however unrelated; under
-- the capacity bench that queue was most of PostgreSQL's waiting. Each transaction now writes to
-- one of 16 shards (chosen by its transaction id, so all its statements use the same one, still
-- in status order); a status's count is the sum of its shards. Existing counts stay in shard 0.
ALTER TABLE "submission_status_counts" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "submission_status_counts" DROP CONSTRAINT "submission_status_counts_pkey";--> statement-breakpoint
ALTER TABLE "submission_status_counts" ADD CONSTRAINT "submission_status_counts_pkey" PRIMARY KEY("status","shard");--> statement-breakpoint
CREATE OR REPLACE FUNCTION submission_status_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s smallint := txid_current() % 16;
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

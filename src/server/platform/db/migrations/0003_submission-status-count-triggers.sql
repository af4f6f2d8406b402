-- Keeps submission_status_counts in step with submissions (docs/decisions/040-admin-list-at-scale.md).
-- Statement-level triggers with transition tables: one counter write per status a statement touches,
-- none when an update leaves the status as it was. Counter rows are written in status order, so
-- concurrent transactions never wait on each other in a cycle.
CREATE FUNCTION submission_status_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO submission_status_counts AS c (status, count)
      SELECT status, count(*) FROM new_rows GROUP BY status ORDER BY status
      ON CONFLICT (status) DO UPDATE SET count = c.count + excluded.count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO submission_status_counts AS c (status, count)
      SELECT status, -count(*) FROM old_rows GROUP BY status ORDER BY status
      ON CONFLICT (status) DO UPDATE SET count = c.count + excluded.count;
  ELSE
    INSERT INTO submission_status_counts AS c (status, count)
      SELECT status, sum(delta) FROM (
        SELECT status, -1 AS delta FROM old_rows
        UNION ALL
        SELECT status, 1 AS delta FROM new_rows
      ) changes
      GROUP BY status HAVING sum(delta) <> 0 ORDER BY status
      ON CONFLICT (status) DO UPDATE SET count = c.count + excluded.count;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION submission_status_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM submission_status_counts;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER submissions_status_counts_insert AFTER INSERT ON submissions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION submission_status_counts_apply();--> statement-breakpoint
CREATE TRIGGER submissions_status_counts_update AFTER UPDATE ON submissions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION submission_status_counts_apply();--> statement-breakpoint
CREATE TRIGGER submissions_status_counts_delete AFTER DELETE ON submissions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION submission_status_counts_apply();--> statement-breakpoint
CREATE TRIGGER submissions_status_counts_truncate AFTER TRUNCATE ON submissions
  FOR EACH STATEMENT EXECUTE FUNCTION submission_status_counts_reset();--> statement-breakpoint
INSERT INTO submission_status_counts (status, count)
  SELECT status, count(*) FROM submissions GROUP BY status
  ON CONFLICT (status) DO UPDATE SET count = excluded.count;

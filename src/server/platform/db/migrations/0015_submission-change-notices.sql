-- Custom migration (decision 143): every committed change to an artist's submissions is announced
-- on the channel `submission_changes` with the artist's user id, whoever made it (an artist, the
-- team, a webhook, a job, `npm run admin`, another instance). Each instance drops what it remembers
-- of that artist's reads when it hears it (server/platform/user-reads.ts). NOTIFY is delivered at
-- commit and not at all on rollback; PostgreSQL folds identical payloads of one transaction into one.
CREATE FUNCTION submission_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('submission_changes', user_id) FROM (SELECT DISTINCT user_id FROM new_rows) changed;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('submission_changes', user_id) FROM (SELECT DISTINCT user_id FROM old_rows) changed;
  ELSE
    PERFORM pg_notify('submission_changes', user_id) FROM (
      SELECT user_id FROM old_rows UNION SELECT user_id FROM new_rows
    ) changed;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION submission_changes_notify_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('submission_changes', '*');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER submissions_changes_insert AFTER INSERT ON submissions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION submission_changes_notify();--> statement-breakpoint
CREATE TRIGGER submissions_changes_update AFTER UPDATE ON submissions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION submission_changes_notify();--> statement-breakpoint
CREATE TRIGGER submissions_changes_delete AFTER DELETE ON submissions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION submission_changes_notify();--> statement-breakpoint
CREATE TRIGGER submissions_changes_truncate AFTER TRUNCATE ON submissions
  FOR EACH STATEMENT EXECUTE FUNCTION submission_changes_notify_all();

-- CONTRACT §16 (decision 168): the 14-day check waits for YouTube Analytics to report the window's
-- last day; while it waits, its next try. The backstop leaves a waiting check alone until then.
ALTER TABLE "publications" ADD COLUMN "check_retry_at" timestamp with time zone;

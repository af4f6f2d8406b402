-- Issue 22 finding 2: a reset link works only while the account keeps the address it went to and
-- the password it had (password_fingerprint). Links sent before this column existed are bound to
-- nothing, so they are spent: they last an hour at most, and asking again sends a bound one.
DELETE FROM "password_reset_tokens";--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD COLUMN "password_fingerprint" text NOT NULL;

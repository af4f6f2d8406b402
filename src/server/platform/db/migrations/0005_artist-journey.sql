DROP INDEX "submissions_created_id_idx";--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "submission_type" text DEFAULT 'track' NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "draft_step" integer;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "artist_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "profile_prompt_dismissed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "submissions_created_id_idx" ON "submissions" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "submissions"."status" <> 'draft';--> statement-breakpoint
-- Accounts that exist already have seen the profile prompt on every visit: from now on they get the small card instead.
UPDATE "users" SET "profile_prompt_dismissed_at" = now() WHERE "profile_setup_complete" = false;

-- Issue 47, CONTRACT §27 (decision 197): revise and resubmit. A status `changes_requested`; the
-- submission's `round` (the original is 1, at most 3 new versions follow); every version of the
-- music (or video) kept in `submission_versions`, the submission row holding the current one; each
-- timestamped comment belongs to a round (existing ones to round 1). The status counters (0003,
-- 0030) count any status their trigger sees, so the new one needs no change there.
ALTER TABLE "submissions" DROP CONSTRAINT "submissions_status_check";--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_status_check" CHECK ("submissions"."status" in ('draft', 'pending', 'under_review', 'changes_requested', 'approved', 'in_creation', 'completed', 'published', 'rejected', 'archived', 'payment_pending', 'payment_failed'));--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "round" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_round_check" CHECK ("submissions"."round" between 1 and 4);--> statement-breakpoint
ALTER TABLE "submission_history" DROP CONSTRAINT "submission_history_field_check";--> statement-breakpoint
ALTER TABLE "submission_history" ADD CONSTRAINT "submission_history_field_check" CHECK ("submission_history"."field" in ('status', 'notes', 'payment_status', 'review', 'assignee', 'tags', 'delivery', 'revision', 'refund', 'publication', 'views', 'owners', 'agreement', 'allowlist', 'rights_override', 'viral_review', 'viral_hit', 'version'));--> statement-breakpoint
ALTER TABLE "submission_history" DROP CONSTRAINT "submission_history_reason_check";--> statement-breakpoint
ALTER TABLE "submission_history" ADD CONSTRAINT "submission_history_reason_check" CHECK ("submission_history"."reason" in ('submitted', 'review', 'tier_changed', 'checkout_reopened', 'payment_succeeded', 'payment_failed', 'published', 'late_decision', 'changes_requested', 'resubmitted'));--> statement-breakpoint
ALTER TABLE "artist_activity" DROP CONSTRAINT "artist_activity_kind_check";--> statement-breakpoint
ALTER TABLE "artist_activity" ADD CONSTRAINT "artist_activity_kind_check" CHECK ("artist_activity"."kind" in ('delivery_comment', 'reply', 'cut_approved', 'agreement_signed', 'withdrawn', 'new_version'));--> statement-breakpoint
ALTER TABLE "track_comments" ADD COLUMN "round" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE TABLE "submission_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"submission_id" text NOT NULL,
	"round" integer NOT NULL,
	"note" text,
	"file_name" text,
	"url" text,
	"object_path" text,
	"upload_id" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "submission_versions_round_check" CHECK ("submission_versions"."round" between 1 and 4)
);--> statement-breakpoint
ALTER TABLE "submission_versions" ADD CONSTRAINT "submission_versions_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_versions" ADD CONSTRAINT "submission_versions_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_versions" ADD CONSTRAINT "submission_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "submission_versions_submission_round_key" ON "submission_versions" USING btree ("submission_id","round");--> statement-breakpoint
-- Round 1 of every submission already sent to the label: its music (or video) as it is now.
INSERT INTO "submission_versions" ("id", "submission_id", "round", "file_name", "url", "object_path", "upload_id", "created_by", "created_at")
SELECT gen_random_uuid()::text, s."id", 1, u."file_name",
  CASE WHEN s."submission_type" = 'video' THEN s."video_url" ELSE s."music_url" END,
  CASE WHEN s."submission_type" = 'video' THEN s."video_file_url" ELSE s."music_file_url" END,
  u."id", s."user_id", s."created_at"
FROM "submissions" s
LEFT JOIN "uploads" u ON u."id" = substring(CASE WHEN s."submission_type" = 'video' THEN s."video_file_url" ELSE s."music_file_url" END from '^/objects/uploads/(.+)$')
WHERE s."status" <> 'draft';

-- CONTRACT §23 "Publishing never hangs" (decision 175): a publication counts its attempts, keeps
-- when the next one is due and why the last one failed, and may be cancelled.
ALTER TABLE "youtube_uploads" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "youtube_uploads" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "youtube_uploads" ADD COLUMN "error_reason" text;--> statement-breakpoint
ALTER TABLE "youtube_uploads" DROP CONSTRAINT "youtube_uploads_state_check";--> statement-breakpoint
ALTER TABLE "youtube_uploads" ADD CONSTRAINT "youtube_uploads_state_check" CHECK ("youtube_uploads"."state" in ('queued', 'uploading', 'processing', 'published', 'failed', 'cancelled'));

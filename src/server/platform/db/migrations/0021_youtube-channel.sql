CREATE TABLE "youtube_channels" (
	"id" text PRIMARY KEY DEFAULT 'label' NOT NULL,
	"channel_id" text NOT NULL,
	"title" text NOT NULL,
	"subscriber_count" bigint,
	"refresh_token" text NOT NULL,
	"access_token" text,
	"access_token_expires_at" timestamp with time zone,
	"connected_by" text,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "youtube_channels_single_check" CHECK ("youtube_channels"."id" = 'label')
);
--> statement-breakpoint
ALTER TABLE "youtube_channels" ADD CONSTRAINT "youtube_channels_connected_by_users_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "youtube_uploads" (
	"submission_id" text PRIMARY KEY NOT NULL,
	"upload_id" text NOT NULL,
	"state" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"privacy_status" text NOT NULL,
	"publish_at" timestamp with time zone,
	"session_uri" text,
	"bytes_sent" bigint DEFAULT 0 NOT NULL,
	"bytes_total" bigint NOT NULL,
	"video_id" text,
	"error" text,
	"lease_until" timestamp with time zone,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "youtube_uploads_state_check" CHECK ("youtube_uploads"."state" in ('queued', 'uploading', 'processing', 'published', 'failed')),
	CONSTRAINT "youtube_uploads_privacy_status_check" CHECK ("youtube_uploads"."privacy_status" in ('public', 'unlisted', 'private'))
);
--> statement-breakpoint
ALTER TABLE "youtube_uploads" ADD CONSTRAINT "youtube_uploads_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "youtube_uploads" ADD CONSTRAINT "youtube_uploads_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "youtube_uploads" ADD CONSTRAINT "youtube_uploads_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "youtube_uploads_upload_idx" ON "youtube_uploads" USING btree ("upload_id");--> statement-breakpoint
CREATE TABLE "daily_views" (
	"submission_id" text NOT NULL,
	"day" text NOT NULL,
	"views" bigint NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "daily_views_submission_id_day_pk" PRIMARY KEY("submission_id","day")
);
--> statement-breakpoint
ALTER TABLE "daily_views" ADD CONSTRAINT "daily_views_submission_id_publications_submission_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."publications"("submission_id") ON DELETE cascade ON UPDATE no action;

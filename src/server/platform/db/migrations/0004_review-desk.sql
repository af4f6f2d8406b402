CREATE TABLE "audio_peaks" (
	"upload_id" text PRIMARY KEY NOT NULL,
	"duration_seconds" real NOT NULL,
	"peaks" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"body" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submission_desk" (
	"submission_id" text PRIMARY KEY NOT NULL,
	"assignee_id" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"rating_average" real,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"listened_ranges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"listened_share" real DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submission_ratings" (
	"submission_id" text NOT NULL,
	"admin_id" text NOT NULL,
	"score" smallint NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "submission_ratings_submission_id_admin_id_pk" PRIMARY KEY("submission_id","admin_id")
);
--> statement-breakpoint
CREATE TABLE "track_comments" (
	"id" text PRIMARY KEY NOT NULL,
	"submission_id" text NOT NULL,
	"author_id" text,
	"at_seconds" real NOT NULL,
	"text" text NOT NULL,
	"visible_to_artist" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audio_peaks" ADD CONSTRAINT "audio_peaks_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_templates" ADD CONSTRAINT "review_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_desk" ADD CONSTRAINT "submission_desk_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_desk" ADD CONSTRAINT "submission_desk_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_ratings" ADD CONSTRAINT "submission_ratings_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_ratings" ADD CONSTRAINT "submission_ratings_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_comments" ADD CONSTRAINT "track_comments_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_comments" ADD CONSTRAINT "track_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "review_templates_name_key" ON "review_templates" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "submission_desk_assignee_idx" ON "submission_desk" USING btree ("assignee_id");--> statement-breakpoint
CREATE INDEX "submission_desk_tags_idx" ON "submission_desk" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "submission_desk_rating_idx" ON "submission_desk" USING btree ("rating_average");--> statement-breakpoint
CREATE INDEX "track_comments_submission_idx" ON "track_comments" USING btree ("submission_id","at_seconds");
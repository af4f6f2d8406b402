CREATE TABLE "bonus_earnings" (
	"submission_id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"amount" numeric(10, 2) NOT NULL,
	"status" text DEFAULT 'owed' NOT NULL,
	"paid_at" timestamp with time zone,
	"paid_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"submission_id" text NOT NULL,
	"note" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_files" (
	"upload_id" text PRIMARY KEY NOT NULL,
	"delivery_id" text NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publications" (
	"submission_id" text PRIMARY KEY NOT NULL,
	"video_url" text NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"subscriber_count" bigint NOT NULL,
	"subscriber_source" text NOT NULL,
	"check_at" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone,
	"check_late_seconds" integer,
	"views_at_14_days" bigint,
	"viral_hit" boolean,
	"hit_recorded_at" timestamp with time zone,
	"published_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "revision_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"submission_id" text NOT NULL,
	"number" integer NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "terms_texts" (
	"hash" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "view_readings" (
	"id" text PRIMARY KEY NOT NULL,
	"submission_id" text NOT NULL,
	"views" bigint NOT NULL,
	"source" text NOT NULL,
	"recorded_by" text,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "submission_history" DROP CONSTRAINT "submission_history_field_check";--> statement-breakpoint
ALTER TABLE "submissions" DROP CONSTRAINT "submissions_status_check";--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "refund_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "stripe_refund_id" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "terms_hash" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "terms_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bonus_earnings" ADD CONSTRAINT "bonus_earnings_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_earnings" ADD CONSTRAINT "bonus_earnings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_earnings" ADD CONSTRAINT "bonus_earnings_paid_by_users_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_files" ADD CONSTRAINT "delivery_files_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_files" ADD CONSTRAINT "delivery_files_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revision_requests" ADD CONSTRAINT "revision_requests_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_readings" ADD CONSTRAINT "view_readings_submission_id_publications_submission_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."publications"("submission_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_readings" ADD CONSTRAINT "view_readings_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bonus_earnings_user_idx" ON "bonus_earnings" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "deliveries_submission_idx" ON "deliveries" USING btree ("submission_id","created_at");--> statement-breakpoint
CREATE INDEX "delivery_files_delivery_idx" ON "delivery_files" USING btree ("delivery_id","position");--> statement-breakpoint
CREATE INDEX "publications_check_idx" ON "publications" USING btree ("check_at") WHERE "publications"."checked_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "revision_requests_submission_number_key" ON "revision_requests" USING btree ("submission_id","number");--> statement-breakpoint
CREATE INDEX "view_readings_submission_idx" ON "view_readings" USING btree ("submission_id","recorded_at");--> statement-breakpoint
CREATE INDEX "submissions_due_open_idx" ON "submissions" USING btree ("due_at") WHERE "submissions"."delivered_at" is null and "submissions"."due_at" is not null;--> statement-breakpoint
ALTER TABLE "submission_history" ADD CONSTRAINT "submission_history_field_check" CHECK ("submission_history"."field" in ('status', 'notes', 'payment_status', 'review', 'assignee', 'tags', 'delivery', 'revision', 'refund', 'publication', 'views'));--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_refund_reason_check" CHECK ("submissions"."refund_reason" in ('admin', 'late_delivery'));--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_status_check" CHECK ("submissions"."status" in ('draft', 'pending', 'under_review', 'approved', 'in_creation', 'completed', 'published', 'rejected', 'archived', 'payment_pending', 'payment_failed'));
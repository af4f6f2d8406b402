-- CONTRACT §17 (decision 158): numbered versions of deliveries, comments on a delivery, and the
-- artist's approval of a cut.
ALTER TABLE "deliveries" ADD COLUMN "version" integer;--> statement-breakpoint
UPDATE "deliveries" d SET "version" = n.v FROM (
  SELECT "id", row_number() OVER (PARTITION BY "submission_id" ORDER BY "created_at", "id") AS v FROM "deliveries"
) n WHERE n."id" = d."id";--> statement-breakpoint
ALTER TABLE "deliveries" ALTER COLUMN "version" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_submission_version_key" ON "deliveries" USING btree ("submission_id","version");--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "approved_delivery_id" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "cut_approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_approved_delivery_id_deliveries_id_fk" FOREIGN KEY ("approved_delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "delivery_comments" (
	"id" text PRIMARY KEY NOT NULL,
	"delivery_id" text NOT NULL,
	"submission_id" text NOT NULL,
	"file_id" text,
	"at_seconds" real,
	"text" text NOT NULL,
	"reply_to" text,
	"author_id" text,
	"author_role" text NOT NULL,
	"resolved" boolean DEFAULT false NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_comments_author_role_check" CHECK ("delivery_comments"."author_role" in ('user', 'admin'))
);--> statement-breakpoint
ALTER TABLE "delivery_comments" ADD CONSTRAINT "delivery_comments_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_comments" ADD CONSTRAINT "delivery_comments_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_comments" ADD CONSTRAINT "delivery_comments_file_id_uploads_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."uploads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_comments" ADD CONSTRAINT "delivery_comments_reply_to_delivery_comments_id_fk" FOREIGN KEY ("reply_to") REFERENCES "public"."delivery_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_comments" ADD CONSTRAINT "delivery_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_comments_delivery_idx" ON "delivery_comments" USING btree ("delivery_id","created_at");--> statement-breakpoint
CREATE INDEX "delivery_comments_unread_idx" ON "delivery_comments" USING btree ("submission_id","author_role") WHERE "delivery_comments"."read_at" is null;

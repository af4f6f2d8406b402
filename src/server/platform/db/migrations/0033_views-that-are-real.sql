ALTER TABLE "publications" ADD COLUMN "screen_status" text;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "screen_reasons" jsonb;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "screen_sources" jsonb;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "average_view_percentage" double precision;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "screen_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "screen_error" text;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "review_reason" text;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "second_look_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "second_looked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "second_look_views" bigint;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "hit_withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "hit_withdrawn_reason" text;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_screen_status_check" CHECK ("publications"."screen_status" in ('clear', 'suspect', 'confirmed', 'rejected'));--> statement-breakpoint
UPDATE "publications" SET "second_look_at" = "published_at" + interval '28 days' WHERE "viral_hit" IS TRUE AND "published_at" + interval '28 days' > now();--> statement-breakpoint
CREATE INDEX "publications_second_look_idx" ON "publications" USING btree ("second_look_at") WHERE "publications"."second_looked_at" is null;--> statement-breakpoint
ALTER TABLE "bonus_earnings" DROP CONSTRAINT "bonus_earnings_status_check";--> statement-breakpoint
ALTER TABLE "bonus_earnings" ADD CONSTRAINT "bonus_earnings_status_check" CHECK ("bonus_earnings"."status" in ('owed', 'paid', 'void'));--> statement-breakpoint
ALTER TABLE "bonus_earnings" ADD COLUMN "void_reason" text;--> statement-breakpoint
ALTER TABLE "bonus_earnings" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "bonus_clawbacks" (
	"id" text PRIMARY KEY NOT NULL,
	"submission_id" text NOT NULL,
	"payee_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deducted_at" timestamp with time zone,
	"deducted_from" text,
	CONSTRAINT "bonus_clawbacks_amount_check" CHECK ("bonus_clawbacks"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "bonus_clawbacks" ADD CONSTRAINT "bonus_clawbacks_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_clawbacks" ADD CONSTRAINT "bonus_clawbacks_payee_id_payees_id_fk" FOREIGN KEY ("payee_id") REFERENCES "public"."payees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bonus_clawbacks_outstanding_idx" ON "bonus_clawbacks" USING btree ("payee_id","created_at") WHERE "bonus_clawbacks"."deducted_at" is null;
--> statement-breakpoint
CREATE INDEX "bonus_clawbacks_submission_idx" ON "bonus_clawbacks" USING btree ("submission_id");--> statement-breakpoint
ALTER TABLE "submission_history" DROP CONSTRAINT "submission_history_field_check";--> statement-breakpoint
ALTER TABLE "submission_history" ADD CONSTRAINT "submission_history_field_check" CHECK ("submission_history"."field" in ('status', 'notes', 'payment_status', 'review', 'assignee', 'tags', 'delivery', 'revision', 'refund', 'publication', 'views', 'owners', 'agreement', 'allowlist', 'rights_override', 'viral_review', 'viral_hit'));

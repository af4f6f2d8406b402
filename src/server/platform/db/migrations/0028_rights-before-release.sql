-- CONTRACT §22 (decision 178): the song's owners, Content ID and the allowlist on the submission;
-- the licence agreement (its frozen text and hash) and one signature row per owner. Existing
-- submissions keep owners null, read as the artist alone at 100%, and Content ID 'unknown'.
ALTER TABLE "submissions" ADD COLUMN "owners" jsonb;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "content_id" text DEFAULT 'unknown' NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "distributor" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "isrc" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "allowlist_done_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "allowlist_done_by" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_allowlist_done_by_users_id_fk" FOREIGN KEY ("allowlist_done_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_content_id_check" CHECK ("submissions"."content_id" in ('yes', 'no', 'unknown'));--> statement-breakpoint
CREATE TABLE "agreements" (
	"submission_id" text PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"text" text NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "agreement_signatures" (
	"id" text PRIMARY KEY NOT NULL,
	"submission_id" text NOT NULL,
	"owner_index" integer NOT NULL,
	"owner_name" text NOT NULL,
	"owner_email" text,
	"role" text NOT NULL,
	"share" numeric(5, 2) NOT NULL,
	"signed_name" text,
	"signed_at" timestamp with time zone,
	"signed_by" text,
	"on_behalf" boolean DEFAULT false NOT NULL,
	"ip" text,
	"user_agent" text,
	"sha256" text,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"token_used_at" timestamp with time zone,
	CONSTRAINT "agreement_signatures_role_check" CHECK ("agreement_signatures"."role" in ('artist', 'writer', 'producer', 'featured', 'other'))
);--> statement-breakpoint
ALTER TABLE "agreement_signatures" ADD CONSTRAINT "agreement_signatures_submission_id_agreements_submission_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."agreements"("submission_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreement_signatures" ADD CONSTRAINT "agreement_signatures_signed_by_users_id_fk" FOREIGN KEY ("signed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agreement_signatures_owner_key" ON "agreement_signatures" USING btree ("submission_id","owner_index");--> statement-breakpoint
CREATE UNIQUE INDEX "agreement_signatures_token_key" ON "agreement_signatures" USING btree ("token_hash");--> statement-breakpoint
ALTER TABLE "submission_history" DROP CONSTRAINT "submission_history_field_check";--> statement-breakpoint
ALTER TABLE "submission_history" ADD CONSTRAINT "submission_history_field_check" CHECK ("submission_history"."field" in ('status', 'notes', 'payment_status', 'review', 'assignee', 'tags', 'delivery', 'revision', 'refund', 'publication', 'views', 'owners', 'agreement', 'allowlist', 'rights_override'));

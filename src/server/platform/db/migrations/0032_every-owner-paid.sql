-- CONTRACT §24 (decision 194): every owner paid, with papers. An earning's shares (one per owner
-- of the song, in cents, adding up to the earning), the payees they are paid to (the artist's
-- own, and one per co-owner email), a payee's emailed links (only their hash), tax forms (the
-- TIN sealed with the token key, its last four apart) and payees' Stripe Connect accounts.
-- Existing earnings become one 100% share of the submitting artist, paid as they were.
CREATE TABLE "payees" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"email" text,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payees_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "payees_email_unique" UNIQUE("email"),
	CONSTRAINT "payees_email_lower_check" CHECK ("payees"."email" = lower("payees"."email"))
);--> statement-breakpoint
ALTER TABLE "payees" ADD CONSTRAINT "payees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "payee_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"payee_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "payee_links" ADD CONSTRAINT "payee_links_payee_id_payees_id_fk" FOREIGN KEY ("payee_id") REFERENCES "public"."payees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payee_links_payee_idx" ON "payee_links" USING btree ("payee_id");--> statement-breakpoint
CREATE TABLE "earning_shares" (
	"submission_id" text NOT NULL,
	"owner_id" integer NOT NULL,
	"payee_id" text,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"share" numeric(5, 2) NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'unpaid' NOT NULL,
	"paid_at" timestamp with time zone,
	"paid_by" text,
	"transfer_id" text,
	"void_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "earning_shares_submission_id_owner_id_pk" PRIMARY KEY("submission_id","owner_id"),
	CONSTRAINT "earning_shares_transfer_id_unique" UNIQUE("transfer_id"),
	CONSTRAINT "earning_shares_status_check" CHECK ("earning_shares"."status" in ('unpaid', 'paid', 'void')),
	CONSTRAINT "earning_shares_role_check" CHECK ("earning_shares"."role" in ('artist', 'writer', 'producer', 'featured', 'other')),
	CONSTRAINT "earning_shares_amount_check" CHECK ("earning_shares"."amount_cents" >= 0)
);--> statement-breakpoint
ALTER TABLE "earning_shares" ADD CONSTRAINT "earning_shares_submission_id_bonus_earnings_submission_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."bonus_earnings"("submission_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "earning_shares" ADD CONSTRAINT "earning_shares_payee_id_payees_id_fk" FOREIGN KEY ("payee_id") REFERENCES "public"."payees"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "earning_shares" ADD CONSTRAINT "earning_shares_paid_by_users_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "earning_shares_payee_idx" ON "earning_shares" USING btree ("payee_id","paid_at");--> statement-breakpoint
CREATE TABLE "tax_forms" (
	"payee_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"legal_name" text NOT NULL,
	"country" text NOT NULL,
	"address" text NOT NULL,
	"tin_sealed" text,
	"tin_last4" text,
	"signed_name" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"signed_by" text,
	"ip" text,
	"user_agent" text,
	CONSTRAINT "tax_forms_kind_check" CHECK ("tax_forms"."kind" in ('w9', 'w8ben'))
);--> statement-breakpoint
ALTER TABLE "tax_forms" ADD CONSTRAINT "tax_forms_payee_id_payees_id_fk" FOREIGN KEY ("payee_id") REFERENCES "public"."payees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_forms" ADD CONSTRAINT "tax_forms_signed_by_users_id_fk" FOREIGN KEY ("signed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "payee_payout_accounts" (
	"payee_id" text PRIMARY KEY NOT NULL,
	"stripe_account_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payee_payout_accounts_stripe_account_id_unique" UNIQUE("stripe_account_id"),
	CONSTRAINT "payee_payout_accounts_status_check" CHECK ("payee_payout_accounts"."status" in ('pending', 'active'))
);--> statement-breakpoint
ALTER TABLE "payee_payout_accounts" ADD CONSTRAINT "payee_payout_accounts_payee_id_payees_id_fk" FOREIGN KEY ("payee_id") REFERENCES "public"."payees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "payees" ("id", "user_id", "name")
SELECT gen_random_uuid()::text, "e"."user_id", max("s"."artist_name")
FROM "bonus_earnings" "e" JOIN "submissions" "s" ON "s"."id" = "e"."submission_id"
GROUP BY "e"."user_id";--> statement-breakpoint
INSERT INTO "earning_shares" ("submission_id", "owner_id", "payee_id", "name", "role", "share", "amount_cents", "status", "paid_at", "paid_by", "transfer_id", "created_at")
SELECT "e"."submission_id", 0, "p"."id", "s"."artist_name", 'artist', 100, round("e"."amount" * 100)::integer,
	CASE WHEN "e"."status" = 'paid' THEN 'paid' ELSE 'unpaid' END, "e"."paid_at", "e"."paid_by", "e"."transfer_id", "e"."created_at"
FROM "bonus_earnings" "e"
JOIN "submissions" "s" ON "s"."id" = "e"."submission_id"
JOIN "payees" "p" ON "p"."user_id" = "e"."user_id";

CREATE TABLE "payout_accounts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"stripe_account_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_accounts_stripe_account_id_unique" UNIQUE("stripe_account_id"),
	CONSTRAINT "payout_accounts_status_check" CHECK ("payout_accounts"."status" in ('pending', 'active'))
);
--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD CONSTRAINT "payout_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_earnings" ADD COLUMN "transfer_id" text;--> statement-breakpoint
ALTER TABLE "bonus_earnings" ADD CONSTRAINT "bonus_earnings_transfer_id_unique" UNIQUE("transfer_id");

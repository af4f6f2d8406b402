ALTER TABLE "submissions" DROP CONSTRAINT "submissions_refund_reason_check";--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_refund_reason_check" CHECK ("submissions"."refund_reason" in ('admin', 'late_delivery', 'rejected'));--> statement-breakpoint
CREATE TABLE "billing_document_counters" (
	"kind" text NOT NULL,
	"year" integer NOT NULL,
	"last_sequence" integer NOT NULL,
	CONSTRAINT "billing_document_counters_kind_year_pk" PRIMARY KEY("kind","year"),
	CONSTRAINT "billing_document_counters_kind_check" CHECK ("billing_document_counters"."kind" in ('invoice', 'credit_note'))
);
--> statement-breakpoint
CREATE TABLE "billing_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"number" text NOT NULL,
	"submission_id" text,
	"user_id" text,
	"stripe_payment_intent_id" text,
	"issued_at" timestamp with time zone NOT NULL,
	"pricing_tier" text NOT NULL,
	"song_title" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"buyer_name" text,
	"buyer_email" text,
	"buyer_country" text,
	"invoice_number" text,
	CONSTRAINT "billing_documents_kind_check" CHECK ("billing_documents"."kind" in ('invoice', 'credit_note')),
	CONSTRAINT "billing_documents_pricing_tier_check" CHECK ("billing_documents"."pricing_tier" in ('free', 'basic', 'premium', 'professional'))
);
--> statement-breakpoint
ALTER TABLE "billing_documents" ADD CONSTRAINT "billing_documents_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_documents" ADD CONSTRAINT "billing_documents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_documents_number_key" ON "billing_documents" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_documents_kind_year_sequence_key" ON "billing_documents" USING btree ("kind","year","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_documents_submission_kind_key" ON "billing_documents" USING btree ("submission_id","kind");--> statement-breakpoint
CREATE INDEX "billing_documents_user_idx" ON "billing_documents" USING btree ("user_id","issued_at");--> statement-breakpoint
-- Backfill: every payment that succeeded before this migration gets its invoice, numbered per year in payment order.
INSERT INTO "billing_documents" ("id", "kind", "year", "sequence", "number", "submission_id", "user_id", "stripe_payment_intent_id", "issued_at", "pricing_tier", "song_title", "amount_cents", "currency", "buyer_name", "buyer_email", "buyer_country")
SELECT
	'inv-' || p."id",
	'invoice',
	p."year",
	p."sequence",
	'INV-' || p."year" || '-' || lpad(p."sequence"::text, 6, '0'),
	p."id", p."user_id", p."stripe_payment_intent_id", p."paid_at", p."pricing_tier", p."song_title", p."amount_cents", 'usd',
	p."buyer_name", p."buyer_email", p."buyer_country"
FROM (
	SELECT q.*, row_number() OVER (PARTITION BY q."year" ORDER BY q."paid_at", q."id")::integer AS "sequence"
	FROM (
		SELECT
			s."id", s."user_id", s."stripe_payment_intent_id", s."pricing_tier", s."song_title",
			coalesce(round(s."amount" * 100)::integer, CASE s."pricing_tier" WHEN 'basic' THEN 4900 WHEN 'premium' THEN 9900 WHEN 'professional' THEN 19900 ELSE 0 END) AS "amount_cents",
			coalesce(nullif(trim(coalesce(u."first_name", '') || ' ' || coalesce(u."last_name", '')), ''), u."artist_name", s."artist_name") AS "buyer_name",
			u."email" AS "buyer_email", u."country" AS "buyer_country",
			coalesce(
				(SELECT max(h."created_at") FROM "submission_history" h WHERE h."submission_id" = s."id" AND h."field" = 'payment_status' AND h."to_value" = 'succeeded'),
				s."updated_at"
			) AS "paid_at",
			extract(year FROM coalesce(
				(SELECT max(h."created_at") FROM "submission_history" h WHERE h."submission_id" = s."id" AND h."field" = 'payment_status' AND h."to_value" = 'succeeded'),
				s."updated_at"
			) AT TIME ZONE 'UTC')::integer AS "year"
		FROM "submissions" s
		LEFT JOIN "users" u ON u."id" = s."user_id"
		WHERE s."payment_status" IN ('succeeded', 'refunded') AND s."stripe_payment_intent_id" IS NOT NULL
	) q
) p;--> statement-breakpoint
-- And every refund before it its credit note, in refund order, for the invoice's amount.
INSERT INTO "billing_documents" ("id", "kind", "year", "sequence", "number", "submission_id", "user_id", "stripe_payment_intent_id", "issued_at", "pricing_tier", "song_title", "amount_cents", "currency", "buyer_name", "buyer_email", "buyer_country", "invoice_number")
SELECT
	'cn-' || r."submission_id", 'credit_note', r."refund_year", r."sequence",
	'CN-' || r."refund_year" || '-' || lpad(r."sequence"::text, 6, '0'),
	r."submission_id", r."user_id", r."stripe_payment_intent_id", r."refunded_at", r."pricing_tier", r."song_title", r."amount_cents", r."currency",
	r."buyer_name", r."buyer_email", r."buyer_country", r."number"
FROM (
	SELECT q.*, row_number() OVER (PARTITION BY q."refund_year" ORDER BY q."refunded_at", q."submission_id")::integer AS "sequence"
	FROM (
		SELECT
			d."submission_id", d."user_id", d."stripe_payment_intent_id", d."pricing_tier", d."song_title", d."amount_cents", d."currency",
			d."buyer_name", d."buyer_email", d."buyer_country", d."number",
			coalesce(s."refund_requested_at", s."updated_at") AS "refunded_at",
			extract(year FROM coalesce(s."refund_requested_at", s."updated_at") AT TIME ZONE 'UTC')::integer AS "refund_year"
		FROM "billing_documents" d JOIN "submissions" s ON s."id" = d."submission_id"
		WHERE d."kind" = 'invoice' AND s."payment_status" = 'refunded'
	) q
) r;--> statement-breakpoint
INSERT INTO "billing_document_counters" ("kind", "year", "last_sequence")
SELECT "kind", "year", max("sequence") FROM "billing_documents" GROUP BY "kind", "year";

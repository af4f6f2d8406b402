-- Issue 48 (decision 198): handover. The MD5 and SHA-256 of an upload's stored bytes, kept once
-- computed (the release package names each file with its MD5, the evidence pack lists every
-- file's SHA-256); and webhooks: endpoints (the signing secret sealed with the token key), the
-- events as they happened, and one delivery per event and endpoint with every attempt, an outbox
-- that several instances claim with a lease.
ALTER TABLE "uploads" ADD COLUMN "md5" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "sha256" text;--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
  "id" text PRIMARY KEY NOT NULL,
  "url" text NOT NULL,
  "events" text[] NOT NULL,
  "secret" text NOT NULL,
  "created_by" text REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "webhook_events" (
  "id" text PRIMARY KEY NOT NULL,
  "type" text NOT NULL,
  "data" jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
  "id" text PRIMARY KEY NOT NULL,
  "event_id" text NOT NULL REFERENCES "webhook_events"("id") ON DELETE CASCADE,
  "endpoint_id" text NOT NULL REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE,
  "status" text DEFAULT 'pending' NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
  "lease_until" timestamp with time zone,
  "delivered_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_endpoint_key" ON "webhook_deliveries" USING btree ("event_id", "endpoint_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id", "created_at");--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
  "id" text PRIMARY KEY NOT NULL,
  "delivery_id" text NOT NULL REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE,
  "attempt" integer NOT NULL,
  "status_code" integer,
  "error" text,
  "duration_ms" integer NOT NULL,
  "attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_attempts_delivery_attempt_key" ON "webhook_attempts" USING btree ("delivery_id", "attempt");

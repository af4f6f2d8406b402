ALTER TABLE "submissions" ADD COLUMN "decision_clock_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "decision_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "decision_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "decision_overdue_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "late_decision_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "away_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submission_desk" ADD COLUMN "assigned_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "submissions_decision_waiting_idx" ON "submissions" USING btree ("decision_due_at") WHERE "submissions"."decided_at" is null and "submissions"."decision_due_at" is not null;--> statement-breakpoint
ALTER TABLE "submissions" DROP CONSTRAINT "submissions_refund_reason_check";--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_refund_reason_check" CHECK ("submissions"."refund_reason" in ('admin', 'late_delivery', 'rejected', 'withdrawn', 'late_decision'));--> statement-breakpoint
ALTER TABLE "submission_history" DROP CONSTRAINT "submission_history_reason_check";--> statement-breakpoint
ALTER TABLE "submission_history" ADD CONSTRAINT "submission_history_reason_check" CHECK ("submission_history"."reason" in ('submitted', 'review', 'tier_changed', 'checkout_reopened', 'payment_succeeded', 'payment_failed', 'published', 'late_decision'));

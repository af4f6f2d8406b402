-- CONTRACT §21 (decision 170): withdrawing paid work refunds it, with its own reason.
ALTER TABLE "submissions" DROP CONSTRAINT "submissions_refund_reason_check";--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_refund_reason_check" CHECK ("submissions"."refund_reason" in ('admin', 'late_delivery', 'rejected', 'withdrawn'));

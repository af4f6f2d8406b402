ALTER TABLE "outbox_emails" ADD CONSTRAINT "outbox_emails_status_check" CHECK ("outbox_emails"."status" in ('pending', 'sent', 'logged', 'skipped', 'failed'));--> statement-breakpoint
ALTER TABLE "submission_history" ADD CONSTRAINT "submission_history_field_check" CHECK ("submission_history"."field" in ('status', 'notes', 'payment_status', 'review', 'assignee', 'tags'));--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_status_check" CHECK ("submissions"."status" in ('draft', 'pending', 'under_review', 'approved', 'in_creation', 'completed', 'rejected', 'archived', 'payment_pending', 'payment_failed'));--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_submission_type_check" CHECK ("submissions"."submission_type" in ('track', 'video'));--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_submission_method_check" CHECK ("submissions"."submission_method" in ('link', 'upload'));--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_release_status_check" CHECK ("submissions"."release_status" in ('released', 'unreleased'));--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_release_date_option_check" CHECK ("submissions"."release_date_option" in ('specific', 'undecided', 'asap'));--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_video_style_check" CHECK ("submissions"."video_style" in ('custom', 'non-custom'));--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_pricing_tier_check" CHECK ("submissions"."pricing_tier" in ('free', 'basic', 'premium', 'professional'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_auth_provider_check" CHECK ("users"."auth_provider" in ('local', 'google'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('user', 'admin'));
CREATE TABLE "submission_status_counts" (
	"status" text PRIMARY KEY NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "submissions_status_created_idx";--> statement-breakpoint
DROP INDEX "submissions_created_idx";--> statement-breakpoint
CREATE INDEX "submissions_status_created_id_idx" ON "submissions" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "submissions_created_id_idx" ON "submissions" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "submissions_song_title_trgm_idx" ON "submissions" USING gin ("song_title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "submissions_artist_name_trgm_idx" ON "submissions" USING gin ("artist_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);
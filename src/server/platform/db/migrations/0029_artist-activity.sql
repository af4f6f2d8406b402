-- Issue 33 part 4 (decision 174): what an artist did that the team should hear (a delivery
-- comment, a reply, a cut approval, an agreement signature, a withdrawal), and when each admin last
-- looked at a submission's; the desk's and the header's badges count what is newer. New tables only.
-- No foreign key to submissions: a withdrawal deletes the submission, and the team still hears it.
CREATE TABLE "artist_activity" (
  "id" text PRIMARY KEY NOT NULL,
  "submission_id" text NOT NULL,
  "song_title" text NOT NULL,
  "kind" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "artist_activity_kind_check" CHECK ("kind" IN ('delivery_comment', 'reply', 'cut_approved', 'agreement_signed', 'withdrawn'))
);--> statement-breakpoint
CREATE INDEX "artist_activity_submission_idx" ON "artist_activity" USING btree ("submission_id", "created_at");--> statement-breakpoint
CREATE INDEX "artist_activity_created_idx" ON "artist_activity" USING btree ("created_at");--> statement-breakpoint
CREATE TABLE "artist_activity_seen" (
  "user_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "submission_id" text NOT NULL,
  "seen_at" timestamp with time zone NOT NULL,
  CONSTRAINT "artist_activity_seen_pk" PRIMARY KEY ("user_id", "submission_id")
);

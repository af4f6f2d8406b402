-- CONTRACT §18 (decision 159): one conversation per artist with the whole label team.
-- messages.artist_id names the artist whose team conversation a message belongs to (null: between
-- two team members); to_user_id is null for an artist's message to the team.
ALTER TABLE "messages" ADD COLUMN "artist_id" text REFERENCES "users"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "to_user_id" DROP NOT NULL;--> statement-breakpoint
CREATE TABLE "team_conversations" (
  "artist_id" text PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "last_message_id" text NOT NULL REFERENCES "messages"("id") ON DELETE CASCADE,
  "last_message_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "team_conversations_latest_idx" ON "team_conversations" USING btree ("last_message_at" DESC, "artist_id" DESC);--> statement-breakpoint
CREATE TABLE "message_attachments" (
  "message_id" text NOT NULL REFERENCES "messages"("id") ON DELETE CASCADE,
  "position" integer NOT NULL,
  "upload_id" text NOT NULL REFERENCES "uploads"("id") ON DELETE CASCADE,
  CONSTRAINT "message_attachments_pk" PRIMARY KEY ("message_id", "position")
);--> statement-breakpoint
CREATE INDEX "message_attachments_upload_idx" ON "message_attachments" USING btree ("upload_id");--> statement-breakpoint
-- The fold (re-runnable: the migration test replays it on rows written the old way).
-- Every message between an artist and a team member joins that artist's team conversation; the
-- person it was addressed to stays in to_user_id, its text, time and read state are unchanged.
UPDATE "messages" m SET "artist_id" = CASE WHEN f."role" = 'admin' THEN m."to_user_id" ELSE m."from_user_id" END
FROM "users" f, "users" t
WHERE f."id" = m."from_user_id" AND t."id" = m."to_user_id" AND m."artist_id" IS NULL
  AND (f."role" = 'admin') <> (t."role" = 'admin');--> statement-breakpoint
INSERT INTO "team_conversations" ("artist_id", "last_message_id", "last_message_at")
SELECT DISTINCT ON ("artist_id") "artist_id", "id", "created_at" FROM "messages"
WHERE "artist_id" IS NOT NULL
ORDER BY "artist_id", "created_at" DESC, "id" DESC
ON CONFLICT ("artist_id") DO UPDATE SET "last_message_id" = excluded."last_message_id", "last_message_at" = excluded."last_message_at"
  WHERE "team_conversations"."last_message_at" <= excluded."last_message_at";--> statement-breakpoint
-- The per-person rows of those conversations are replaced by the team's row.
DELETE FROM "conversations" c USING "users" u, "users" o
WHERE u."id" = c."user_id" AND o."id" = c."other_user_id" AND (u."role" = 'admin') <> (o."role" = 'admin');--> statement-breakpoint
CREATE INDEX "messages_artist_created_idx" ON "messages" USING btree ("artist_id", "created_at");--> statement-breakpoint
CREATE INDEX "messages_team_unread_idx" ON "messages" USING btree ("artist_id", "from_user_id") WHERE "is_read" = false AND "artist_id" IS NOT NULL;

CREATE TABLE "conversations" (
	"user_id" text NOT NULL,
	"other_user_id" text NOT NULL,
	"last_message_id" text NOT NULL,
	"last_message_at" timestamp with time zone NOT NULL,
	CONSTRAINT "conversations_user_id_other_user_id_pk" PRIMARY KEY("user_id","other_user_id")
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_other_user_id_users_id_fk" FOREIGN KEY ("other_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_last_message_id_messages_id_fk" FOREIGN KEY ("last_message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_user_latest_idx" ON "conversations" USING btree ("user_id","last_message_at" DESC NULLS LAST,"other_user_id" DESC NULLS LAST);
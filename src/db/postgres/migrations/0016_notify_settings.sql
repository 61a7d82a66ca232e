CREATE TABLE "user_notify_settings" (
	"user_id" integer NOT NULL,
	"notify_type" text DEFAULT 'email' NOT NULL,
	"quota_warning_threshold" bigint DEFAULT 0 NOT NULL,
	"webhook_url" text DEFAULT '' NOT NULL,
	"webhook_secret" text DEFAULT '' NOT NULL,
	"notification_email" text DEFAULT '' NOT NULL,
	"updated_time" bigint DEFAULT (extract(epoch from now()))::bigint NOT NULL,
	CONSTRAINT "user_notify_settings_user_id_pk" PRIMARY KEY("user_id")
);
--> statement-breakpoint
ALTER TABLE "user_notify_settings" ADD CONSTRAINT "user_notify_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
ALTER TABLE "subscription_plans" ADD COLUMN "upgrade_group" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD COLUMN "upgrade_group" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD COLUMN "prev_user_group" text DEFAULT '' NOT NULL;
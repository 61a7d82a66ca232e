ALTER TABLE `subscription_plans` ADD `upgrade_group` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `user_subscriptions` ADD `upgrade_group` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `user_subscriptions` ADD `prev_user_group` text DEFAULT '' NOT NULL;
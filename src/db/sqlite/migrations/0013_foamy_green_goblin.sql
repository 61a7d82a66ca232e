CREATE TABLE `billing_preferences` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`billing_preference` text DEFAULT 'subscription_first' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `subscription_plans` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`subtitle` text DEFAULT '' NOT NULL,
	`price_cents` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`duration_unit` text DEFAULT 'month' NOT NULL,
	`duration_value` integer DEFAULT 1 NOT NULL,
	`custom_seconds` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`stripe_price_id` text DEFAULT '' NOT NULL,
	`creem_product_id` text DEFAULT '' NOT NULL,
	`max_purchase_per_user` integer DEFAULT 0 NOT NULL,
	`total_amount` integer DEFAULT 0 NOT NULL,
	`quota_reset_period` text DEFAULT 'never' NOT NULL,
	`quota_reset_custom_seconds` integer DEFAULT 0 NOT NULL,
	`models` text DEFAULT '' NOT NULL,
	`groups` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `user_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`plan_id` integer NOT NULL,
	`amount_total` integer DEFAULT 0 NOT NULL,
	`amount_used` integer DEFAULT 0 NOT NULL,
	`start_time` integer NOT NULL,
	`end_time` integer NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`source` text DEFAULT 'order' NOT NULL,
	`last_reset_time` integer DEFAULT 0 NOT NULL,
	`next_reset_time` integer DEFAULT 0 NOT NULL,
	`trade_no` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `user_subscriptions_user_idx` ON `user_subscriptions` (`user_id`,`end_time`);--> statement-breakpoint
CREATE INDEX `user_subscriptions_plan_idx` ON `user_subscriptions` (`plan_id`,`user_id`);--> statement-breakpoint
ALTER TABLE `topups` ADD `plan_id` integer DEFAULT 0 NOT NULL;
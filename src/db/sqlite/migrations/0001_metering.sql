CREATE TABLE `usage_hourly` (
	`user_id` integer NOT NULL,
	`username` text DEFAULT '' NOT NULL,
	`model_name` text NOT NULL,
	`hour` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`token_used` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `model_name`, `hour`)
);
--> statement-breakpoint
CREATE INDEX `usage_hourly_hour_idx` ON `usage_hourly` (`hour`);--> statement-breakpoint
CREATE TABLE `redemptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`key_hash` text NOT NULL,
	`key_hint` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`created_time` integer DEFAULT (unixepoch()) NOT NULL,
	`redeemed_time` integer DEFAULT 0 NOT NULL,
	`used_user_id` integer DEFAULT 0 NOT NULL,
	`expired_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `redemptions_key_hash_unique` ON `redemptions` (`key_hash`);--> statement-breakpoint
CREATE INDEX `redemptions_name_idx` ON `redemptions` (`name`);--> statement-breakpoint
CREATE INDEX `redemptions_status_idx` ON `redemptions` (`status`);
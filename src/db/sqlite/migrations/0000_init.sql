CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password` text NOT NULL,
	`display_name` text DEFAULT '' NOT NULL,
	`role` integer DEFAULT 1 NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`group` text DEFAULT 'default' NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`used_quota` integer DEFAULT 0 NOT NULL,
	`request_count` integer DEFAULT 0 NOT NULL,
	`aff_code` text,
	`aff_count` integer DEFAULT 0 NOT NULL,
	`aff_quota` integer DEFAULT 0 NOT NULL,
	`aff_history_quota` integer DEFAULT 0 NOT NULL,
	`inviter_id` integer DEFAULT 0 NOT NULL,
	`access_token` text,
	`session_version` integer DEFAULT 1 NOT NULL,
	`created_time` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_aff_code_unique` ON `users` (`aff_code`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_access_token_unique` ON `users` (`access_token`);--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role`);--> statement-breakpoint
CREATE TABLE `tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`key_hash` text NOT NULL,
	`key_hint` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`created_time` integer DEFAULT (unixepoch()) NOT NULL,
	`accessed_time` integer DEFAULT 0 NOT NULL,
	`expired_time` integer DEFAULT -1 NOT NULL,
	`remain_quota` integer DEFAULT 0 NOT NULL,
	`unlimited_quota` integer DEFAULT false NOT NULL,
	`used_quota` integer DEFAULT 0 NOT NULL,
	`model_limits_enabled` integer DEFAULT false NOT NULL,
	`model_limits` text DEFAULT '' NOT NULL,
	`allow_ips` text DEFAULT '' NOT NULL,
	`group` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tokens_key_hash_unique` ON `tokens` (`key_hash`);--> statement-breakpoint
CREATE INDEX `tokens_user_idx` ON `tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `options` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`type` integer NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`username` text DEFAULT '' NOT NULL,
	`token_id` integer DEFAULT 0 NOT NULL,
	`token_name` text DEFAULT '' NOT NULL,
	`model_name` text DEFAULT '' NOT NULL,
	`upstream_model` text DEFAULT '' NOT NULL,
	`channel_id` integer DEFAULT 0 NOT NULL,
	`group` text DEFAULT '' NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`cache_read_tokens` integer DEFAULT 0 NOT NULL,
	`cache_write_tokens` integer DEFAULT 0 NOT NULL,
	`reasoning_tokens` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`use_time_ms` integer DEFAULT 0 NOT NULL,
	`first_token_ms` integer DEFAULT 0 NOT NULL,
	`is_stream` integer DEFAULT false NOT NULL,
	`status_code` integer DEFAULT 0 NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`request_id` text DEFAULT '' NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`other` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `logs_created_idx` ON `logs` (`created_at`);--> statement-breakpoint
CREATE INDEX `logs_user_created_idx` ON `logs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `logs_type_created_idx` ON `logs` (`type`,`created_at`);--> statement-breakpoint
CREATE INDEX `logs_model_created_idx` ON `logs` (`model_name`,`created_at`);--> statement-breakpoint
CREATE INDEX `logs_request_idx` ON `logs` (`request_id`);--> statement-breakpoint
CREATE TABLE `abilities` (
	`group` text NOT NULL,
	`model` text NOT NULL,
	`channel_id` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`weight` integer DEFAULT 1 NOT NULL,
	`tag` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`group`, `model`, `channel_id`),
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `abilities_channel_idx` ON `abilities` (`channel_id`);--> statement-breakpoint
CREATE TABLE `channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` integer NOT NULL,
	`name` text NOT NULL,
	`key` text NOT NULL,
	`base_url` text DEFAULT '' NOT NULL,
	`models` text DEFAULT '' NOT NULL,
	`group` text DEFAULT 'default' NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`weight` integer DEFAULT 1 NOT NULL,
	`tag` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`model_mapping` text DEFAULT '' NOT NULL,
	`test_model` text DEFAULT '' NOT NULL,
	`auto_ban` integer DEFAULT 1 NOT NULL,
	`other` text DEFAULT '' NOT NULL,
	`setting` text DEFAULT '' NOT NULL,
	`used_quota` integer DEFAULT 0 NOT NULL,
	`response_time` integer DEFAULT 0 NOT NULL,
	`test_time` integer DEFAULT 0 NOT NULL,
	`created_time` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `channels_tag_idx` ON `channels` (`tag`);
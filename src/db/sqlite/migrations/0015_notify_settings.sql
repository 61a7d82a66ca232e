CREATE TABLE `user_notify_settings` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`notify_type` text DEFAULT 'email' NOT NULL,
	`quota_warning_threshold` integer DEFAULT 0 NOT NULL,
	`webhook_url` text DEFAULT '' NOT NULL,
	`webhook_secret` text DEFAULT '' NOT NULL,
	`notification_email` text DEFAULT '' NOT NULL,
	`updated_time` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);

CREATE TABLE `tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`task_id` text NOT NULL,
	`platform` text NOT NULL,
	`user_id` integer NOT NULL,
	`token_id` integer DEFAULT 0 NOT NULL,
	`channel_id` integer DEFAULT 0 NOT NULL,
	`group` text DEFAULT '' NOT NULL,
	`action` text DEFAULT '' NOT NULL,
	`model` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'SUBMITTED' NOT NULL,
	`progress` text DEFAULT '0%' NOT NULL,
	`fail_reason` text DEFAULT '' NOT NULL,
	`prompt` text DEFAULT '' NOT NULL,
	`image_url` text DEFAULT '' NOT NULL,
	`data` text DEFAULT '{}' NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`refunded` integer DEFAULT 0 NOT NULL,
	`submit_time` integer DEFAULT 0 NOT NULL,
	`start_time` integer DEFAULT 0 NOT NULL,
	`finish_time` integer DEFAULT 0 NOT NULL,
	`request_id` text DEFAULT '' NOT NULL,
	`lease_owner` text DEFAULT '' NOT NULL,
	`lease_until` integer DEFAULT 0 NOT NULL,
	`next_poll_at` integer DEFAULT 0 NOT NULL,
	`misses` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tasks_user_idx` ON `tasks` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_task_id_idx` ON `tasks` (`task_id`);--> statement-breakpoint
CREATE INDEX `tasks_due_idx` ON `tasks` (`status`,`next_poll_at`);--> statement-breakpoint
CREATE INDEX `tasks_platform_idx` ON `tasks` (`platform`,`id`);
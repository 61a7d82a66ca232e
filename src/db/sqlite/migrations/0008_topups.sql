CREATE TABLE `topups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`trade_no` text NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`money_cents` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`payment_method` text DEFAULT '' NOT NULL,
	`payment_provider` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`provider_ref` text DEFAULT '' NOT NULL,
	`create_time` integer DEFAULT (unixepoch()) NOT NULL,
	`complete_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `topups_trade_no_unique` ON `topups` (`trade_no`);--> statement-breakpoint
CREATE INDEX `topups_user_idx` ON `topups` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `topups_status_idx` ON `topups` (`status`);
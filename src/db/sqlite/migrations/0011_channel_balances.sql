ALTER TABLE `channels` ADD `balance` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `channels` ADD `balance_updated_time` integer DEFAULT 0 NOT NULL;
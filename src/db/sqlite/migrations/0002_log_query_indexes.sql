CREATE TABLE `usage_hourly_model` (
	`hour` integer NOT NULL,
	`model_name` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`token_used` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`hour`, `model_name`)
);
--> statement-breakpoint
CREATE INDEX `logs_token_name_created_idx` ON `logs` (`token_name`,`created_at`);--> statement-breakpoint
CREATE INDEX `logs_channel_created_idx` ON `logs` (`channel_id`,`created_at`);--> statement-breakpoint
-- backfill from the per-user table, the complete hourly history (it outlives log retention)
INSERT INTO `usage_hourly_model` (`hour`, `model_name`, `count`, `quota`, `token_used`)
SELECT `hour`, `model_name`, sum(`count`), sum(`quota`), sum(`token_used`) FROM `usage_hourly` GROUP BY `hour`, `model_name`;

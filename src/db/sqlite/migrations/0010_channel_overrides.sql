ALTER TABLE `channels` ADD `param_override` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `channels` ADD `header_override` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `channels` ADD `status_code_mapping` text DEFAULT '' NOT NULL;
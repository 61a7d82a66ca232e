CREATE TABLE `user_bindings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`provider` text NOT NULL,
	`external_id` text NOT NULL,
	`created_time` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_bindings_identity_idx` ON `user_bindings` (`provider`,`external_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `user_bindings_user_idx` ON `user_bindings` (`user_id`,`provider`);
CREATE TABLE `custom_oauth_providers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`icon` text DEFAULT '' NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`client_id` text NOT NULL,
	`client_secret` text DEFAULT '' NOT NULL,
	`authorization_endpoint` text NOT NULL,
	`token_endpoint` text NOT NULL,
	`user_info_endpoint` text NOT NULL,
	`scopes` text DEFAULT '' NOT NULL,
	`user_id_field` text DEFAULT 'sub' NOT NULL,
	`username_field` text DEFAULT 'preferred_username' NOT NULL,
	`display_name_field` text DEFAULT 'name' NOT NULL,
	`email_field` text DEFAULT 'email' NOT NULL,
	`auth_style` integer DEFAULT 0 NOT NULL,
	`created_time` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_time` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_oauth_providers_slug_idx` ON `custom_oauth_providers` (`slug`);
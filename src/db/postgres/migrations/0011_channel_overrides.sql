ALTER TABLE "channels" ADD COLUMN "param_override" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "header_override" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "status_code_mapping" text DEFAULT '' NOT NULL;
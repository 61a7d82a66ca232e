ALTER TABLE "channels" ADD COLUMN "balance" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "balance_updated_time" bigint DEFAULT 0 NOT NULL;
import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { quotaAmount } from './time'

const unixMs = (name: string) => bigint(name, { mode: 'number' })

/** src/db/sqlite/schema/tasks.ts on PostgreSQL: asynchronous tasks, polled under a lease, ended once. */
export const tasks = pgTable(
  'tasks',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    taskId: text('task_id').notNull(),
    upstreamTaskId: text('upstream_task_id').notNull().default(''),
    platform: text('platform').notNull(),
    userId: integer('user_id').notNull(),
    tokenId: integer('token_id').notNull().default(0),
    channelId: integer('channel_id').notNull().default(0),
    group: text('group').notNull().default(''),
    action: text('action').notNull().default(''),
    model: text('model').notNull().default(''),
    status: text('status').notNull().default('SUBMITTED'),
    progress: text('progress').notNull().default('0%'),
    failReason: text('fail_reason').notNull().default(''),
    prompt: text('prompt').notNull().default(''),
    imageUrl: text('image_url').notNull().default(''),
    data: text('data').notNull().default('{}'),
    quota: quotaAmount('quota').notNull().default(0),
    refunded: integer('refunded').notNull().default(0),
    submitTime: unixMs('submit_time').notNull().default(0),
    startTime: unixMs('start_time').notNull().default(0),
    finishTime: unixMs('finish_time').notNull().default(0),
    requestId: text('request_id').notNull().default(''),
    leaseOwner: text('lease_owner').notNull().default(''),
    leaseUntil: unixMs('lease_until').notNull().default(0),
    nextPollAt: unixMs('next_poll_at').notNull().default(0),
    misses: integer('misses').notNull().default(0),
  },
  (table) => [
    index('tasks_user_idx').on(table.userId, table.id),
    index('tasks_task_id_idx').on(table.taskId),
    index('tasks_due_idx').on(table.status, table.nextPollAt),
    index('tasks_platform_idx').on(table.platform, table.id),
  ],
)

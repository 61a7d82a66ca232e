import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Asynchronous tasks (new-api's `midjourneys` and `tasks` in one table): a Midjourney or Suno job submitted to a
 * channel, charged at submit, then polled until it ends. `task_id` is the id the client fetches by (the upstream's
 * own, as midjourney-proxy clients expect). A node polls a task only while it holds its lease (`lease_owner` until
 * `lease_until`, unix ms): a node that dies lets the lease lapse and another takes the task. A task ends once, by a
 * conditional UPDATE from a running status; a failure's refund is written in that same transaction (`refunded`).
 */
export const tasks = sqliteTable(
  'tasks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    taskId: text('task_id').notNull(),
    // the upstream's own id when clients are given another (video tasks: `task_…`, as new-api); '' = task_id
    upstreamTaskId: text('upstream_task_id').notNull().default(''),
    platform: text('platform').notNull(), // midjourney, suno, or a video vendor (sora, kling …)
    userId: integer('user_id').notNull(),
    tokenId: integer('token_id').notNull().default(0),
    channelId: integer('channel_id').notNull().default(0),
    group: text('group').notNull().default(''),
    action: text('action').notNull().default(''), // IMAGINE, UPSCALE … / MUSIC, LYRICS
    model: text('model').notNull().default(''), // the priced name: mj_imagine, suno_music …
    status: text('status').notNull().default('SUBMITTED'),
    progress: text('progress').notNull().default('0%'),
    failReason: text('fail_reason').notNull().default(''),
    prompt: text('prompt').notNull().default(''),
    imageUrl: text('image_url').notNull().default(''),
    // the upstream's last answer for the task, JSON, bounded (TaskResultMaxBytes): buttons, properties, clips …
    data: text('data').notNull().default('{}'),
    quota: integer('quota').notNull().default(0),
    refunded: integer('refunded').notNull().default(0),
    submitTime: integer('submit_time').notNull().default(0), // unix ms, as midjourney-proxy reports times
    startTime: integer('start_time').notNull().default(0),
    finishTime: integer('finish_time').notNull().default(0),
    requestId: text('request_id').notNull().default(''),
    leaseOwner: text('lease_owner').notNull().default(''),
    leaseUntil: integer('lease_until').notNull().default(0),
    nextPollAt: integer('next_poll_at').notNull().default(0),
    misses: integer('misses').notNull().default(0), // polls in a row the upstream did not know the task
  },
  (table) => [
    index('tasks_user_idx').on(table.userId, table.id),
    index('tasks_task_id_idx').on(table.taskId),
    index('tasks_due_idx').on(table.status, table.nextPollAt),
    index('tasks_platform_idx').on(table.platform, table.id),
  ],
)

import type { OptionDefinition } from './option-definition'

/** Asynchronous tasks (src/tasks, docs/tasks.md): how many a user runs, how often and how long they are polled. */
const between = (low: number, high: number) => (value: unknown) => ((value as number) < low || (value as number) > high ? `must be between ${low} and ${high}` : undefined)

export const TASK_OPTIONS: Record<string, OptionDefinition> = {
  TaskMaxInFlightPerUser: { type: 'integer', default: '20', description: 'tasks (Midjourney, Suno) one user may have running at once; one more is refused with 429', check: between(1, 10_000) },
  TaskPollIntervalSeconds: { type: 'integer', default: '15', description: 'seconds between two polls of one running task at its upstream', check: between(1, 3600) },
  TaskPollBatch: { type: 'integer', default: '50', description: 'tasks one node claims, and asks one upstream about in one call, per poll round', check: between(1, 500) },
  TaskLeaseSeconds: { type: 'integer', default: '60', description: "how long a node's claim on a task lasts: a node that dies gives its tasks to another after this", check: between(2, 3600) },
  TaskTimeoutMinutes: { type: 'integer', default: '1440', description: 'a task still running this long after submit fails, refunded', check: between(1, 43_200) },
  TaskLostPolls: { type: 'integer', default: '20', description: 'polls in a row the upstream may not know a task before it fails as lost, refunded', check: between(1, 10_000) },
  TaskResultMaxBytes: { type: 'integer', default: '65536', description: "bytes of an upstream's task answer kept per task (buttons, clips …); more keeps only the essentials", check: between(1024, 4_194_304) },
}

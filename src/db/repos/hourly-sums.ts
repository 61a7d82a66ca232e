// No Drizzle here: the SQLite metering writer thread imports it.
import { LogType, type NewLog } from './logs'

/** [user id, username, model, hour (unix seconds), requests, quota, tokens]: one usage_hourly row's addition. */
export type HourSum = [userId: number, username: string, modelName: string, hour: number, count: number, quota: number, tokenUsed: number]
/** [hour, model, requests, quota, tokens]: one usage_hourly_model row's addition. */
export type ModelHourSum = [hour: number, modelName: string, count: number, quota: number, tokenUsed: number]

/** The hour tuples of a batch's consume rows (requests without a time are counted in `now`'s hour). */
export function* consumeHours(rows: readonly NewLog[], now: number): Generator<HourSum> {
  for (const row of rows) {
    if (row.type !== LogType.consume) continue
    const tokens = (row.promptTokens ?? 0) + (row.completionTokens ?? 0)
    yield [row.userId ?? 0, row.username ?? '', row.modelName ?? '', Math.floor((row.createdAt ?? now) / 3600) * 3600, 1, row.quota ?? 0, tokens]
  }
}

/**
 * Tuples summed per (user, model, hour), keeping the latest username as the upsert does, and those sums per
 * (model, hour): one addition per row of each hourly table, since an upsert may not touch a row twice.
 */
export function sumHours(tuples: Iterable<HourSum>): { hours: HourSum[]; modelHours: ModelHourSum[] } {
  const sums = new Map<string, HourSum>()
  for (const t of tuples) {
    const key = `${t[0]}\u0000${t[2]}\u0000${t[3]}`
    const s = sums.get(key)
    if (s) {
      s[1] = t[1]
      s[4] += t[4]
      s[5] += t[5]
      s[6] += t[6]
    } else sums.set(key, [...t])
  }
  const models = new Map<string, ModelHourSum>()
  for (const [, , model, hour, n, quota, tokens] of sums.values()) {
    const key = `${model}\u0000${hour}`
    const m = models.get(key)
    if (m) {
      m[2] += n
      m[3] += quota
      m[4] += tokens
    } else models.set(key, [hour, model, n, quota, tokens])
  }
  return { hours: [...sums.values()], modelHours: [...models.values()] }
}

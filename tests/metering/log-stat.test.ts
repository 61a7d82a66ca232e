import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { LogType, type LogFilter, type LogRepo, type NewLog } from '../../src/db/repos'
import { DIALECTS } from '../db/repos/dialects'

/**
 * The stat reads whole hours from the hourly tables and only the partial hours from the logs: it must give
 * exactly what summing the log rows gives, for any user / model / time range, before and after retention.
 */
for (const dialect of DIALECTS) describe.skipIf(dialect.skip)(dialect.name, () => {
  let repo: LogRepo
  let close: () => Promise<void>
  const rows: NewLog[] = []
  const T0 = 1_790_000_000 - (1_790_000_000 % 3600) + 1234 // not hour-aligned
  const SPAN = 3 * 86_400
  const CUT = T0 + 86_400 + 1800

  beforeAll(async () => {
    const opened = await dialect.open()
    repo = opened.repos.logs
    close = opened.close
    rows.length = 0
    let seed = 7
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
    for (let i = 0; i < 6000; i++) {
      const user = 1 + Math.floor(rand() * 5)
      rows.push({
        createdAt: T0 + Math.floor(rand() * SPAN),
        type: rand() < 0.1 ? LogType.error : LogType.consume,
        userId: user,
        username: `u${user}`,
        modelName: ['a', 'b', 'c'][Math.floor(rand() * 3)]!,
        tokenName: `k${user % 2}`,
        channelId: 1 + Math.floor(rand() * 3),
        quota: Math.floor(rand() * 1000),
        promptTokens: 10,
        completionTokens: 5,
      })
    }
    // ten rows in one second just after the retention cut below: retention will take part of that second
    for (let i = 0; i < 10; i++) rows.push({ createdAt: CUT + 5, type: LogType.consume, userId: 1, modelName: 'a', quota: 100 + i })
    for (let i = 0; i < rows.length; i += 500) await repo.insertMany(rows.slice(i, i + 500))
  })
  afterAll(() => close())

  const brute = (f: LogFilter, minCreated = 0) =>
    rows
      .filter((r) => r.type === LogType.consume && r.createdAt! >= minCreated)
      .filter((r) => (f.userId === undefined || r.userId === f.userId) && (f.modelName === undefined || r.modelName === f.modelName))
      .filter((r) => (f.tokenName === undefined || r.tokenName === f.tokenName) && (f.channelId === undefined || r.channelId === f.channelId))
      .filter((r) => (f.start === undefined || r.createdAt! >= f.start) && (f.end === undefined || r.createdAt! <= f.end))
      .reduce((s, r) => s + r.quota!, 0)

  function filters(): LogFilter[] {
    const out: LogFilter[] = [{}, { userId: 3 }, { modelName: 'b' }, { userId: 2, modelName: 'c' }, { tokenName: 'k1' }, { channelId: 2 }]
    const ranges = [
      {},
      { start: T0 + 5000 },
      { end: T0 + 86_400 },
      { start: T0 + 100, end: T0 + 200 }, // inside one hour
      { start: T0 + 3000, end: T0 + 2 * 86_400 + 17 },
      { start: T0 - T0 % 3600 + 7200, end: T0 - T0 % 3600 + 36_000 - 1 }, // whole hours exactly
      { start: T0 + SPAN + 10 }, // after every row
    ]
    return out.flatMap((f) => ranges.map((r) => ({ ...f, ...r })))
  }

  test('the stat’s quota equals the sum of the matching consume rows, for every filter', async () => {
    for (const f of filters()) expect({ f, quota: (await repo.stat(f, T0)).quota }).toEqual({ f, quota: brute(f) })
  })

  test('after retention the stat still matches the rows left (the hourly tables keep older hours)', async () => {
    while ((await repo.deleteBefore(CUT, 97)) === 97);
    for (const f of filters()) expect({ f, quota: (await repo.stat(f, T0)).quota }).toEqual({ f, quota: brute(f, CUT) })
    // a retention batch that stopped inside a second (batches go by created_at): the oldest second is partial
    const before = await repo.count({ type: LogType.consume })
    expect(await repo.deleteBefore(CUT + 6, (await repo.count({ end: CUT + 4 })) + 4)).toBeGreaterThan(0)
    expect(await repo.count({ start: CUT + 5, end: CUT + 5 })).toBe(6)
    expect(await repo.count({ type: LogType.consume })).toBeLessThan(before)
    const truth = async (f: LogFilter) => {
      const kept = (await repo.list({ ...f, type: LogType.consume }, 0, 100_000)).items
      return kept.reduce((sum, r) => sum + r.quota, 0)
    }
    for (const f of filters()) expect({ f, quota: (await repo.stat(f, T0)).quota }).toEqual({ f, quota: await truth(f) })
  })

  test('everyone’s hourly usage by model (the per-model table) equals the per-user table summed', async () => {
    const all = await repo.hourly({ start: T0 - 3600, end: T0 + SPAN })
    const perUser = new Map<string, number>()
    for (let user = 1; user <= 5; user++) {
      for (const h of (await repo.hourly({ userId: user, start: T0 - 3600, end: T0 + SPAN }))) {
        const key = `${h.hour} ${h.modelName}`
        perUser.set(key, (perUser.get(key) ?? 0) + h.quota)
      }
    }
    expect(all.length).toBe(perUser.size)
    for (const h of all) expect(h.quota).toBe(perUser.get(`${h.hour} ${h.modelName}`)!)
    // and every consume row is counted once (retention above does not touch the hourly tables)
    expect(all.reduce((s, h) => s + h.count, 0)).toBe(rows.filter((r) => r.type === LogType.consume).length)
  })
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Repos } from '../../../src/db/repos'
import { DIALECTS } from './dialects'

/** Per-channel latency and errors (issue #30) in both dialects: the period's bounds, error counts, nearest-rank p50/p95 of the successes. */
for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip)(dialect.name, () => {
    let repos: Repos
    let close: () => Promise<void>
    beforeAll(async () => {
      ;({ repos, close } = await dialect.open())
    })
    afterAll(() => close())

    test('grouped per channel over the period', async () => {
      const row = (channelId: number, type: number, useTimeMs: number, createdAt = 1000) => ({ userId: 1, type, channelId, useTimeMs, createdAt, content: '', modelName: 'm' })
      const rows = [
        // channel 1: 20 successes of 10..200 ms, 5 errors; channel 2: errors only; channel 3: outside the period
        ...Array.from({ length: 20 }, (_, i) => row(1, 2, (i + 1) * 10)),
        ...Array.from({ length: 5 }, () => row(1, 5, 1)),
        row(2, 5, 30_000),
        row(3, 2, 5, 5000),
        // not a request: a top-up and a row without a channel
        row(1, 1, 0),
        row(0, 2, 999),
      ]
      await repos.logs.insertMany(rows)
      await repos.drainMetering()
      const stats = await repos.logs.channelStats(900, 2000)
      expect(stats).toEqual([
        { channelId: 1, requests: 25, errors: 5, p50Ms: 100, p95Ms: 190 },
        { channelId: 2, requests: 1, errors: 1, p50Ms: 0, p95Ms: 0 },
      ])
      expect(await repos.logs.channelStats(4000, 6000)).toEqual([{ channelId: 3, requests: 1, errors: 0, p50Ms: 5, p95Ms: 5 }])
    })
  })
}

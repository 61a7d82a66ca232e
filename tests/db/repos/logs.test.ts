import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { NewLog } from '../../../src/db/repos'
import { DIALECTS } from './dialects'

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip)(dialect.name, () => {
    let opened: Awaited<ReturnType<typeof dialect.open>>
    beforeAll(async () => void (opened = await dialect.open()))
    afterAll(() => opened.close())

    test('a batch larger than one insert chunk is written whole, every field in place, in order', async () => {
      const repo = opened.repos.logs
      const rows: NewLog[] = Array.from({ length: 70 }, (_, i) => ({
        createdAt: 1_750_000_000 + i,
        type: 2,
        userId: 7,
        username: `u${i}`,
        modelName: 'gpt-4o',
        promptTokens: i,
        completionTokens: 2 * i,
        quota: 10 + i,
        isStream: i % 2 === 0,
        requestId: `req_${i}`,
        other: JSON.stringify({ i }),
      }))
      await repo.insertMany(rows)
      const stored = (await repo.list({ userId: 7 }, 0, 100)).items.reverse()
      expect(stored).toHaveLength(70)
      stored.forEach((row, i) =>
        expect(row).toMatchObject({ username: `u${i}`, promptTokens: i, completionTokens: 2 * i, quota: 10 + i, isStream: i % 2 === 0, requestId: `req_${i}`, other: JSON.stringify({ i }) }),
      )
      expect((await repo.stat({ userId: 7 }, 1_750_000_100)).quota).toBe(rows.reduce((sum, r) => sum + r.quota!, 0))
    })

    test('listBefore walks the filtered rows newest first, page by page, rows of one second not lost or repeated', async () => {
      const repo = opened.repos.logs
      // 25 rows over 5 seconds (five per second: the id breaks the tie), plus another user's rows in between
      const rows: NewLog[] = Array.from({ length: 30 }, (_, i) => ({ createdAt: 1_760_000_000 + Math.floor(i / 6), type: 2, userId: i % 6 === 5 ? 9 : 8, username: 'w', quota: i }))
      await repo.insertMany(rows)
      const seen: number[] = []
      let before: { createdAt: number; id: number } | undefined
      for (;;) {
        const page = await repo.listBefore({ userId: 8 }, before, 4)
        if (page.length === 0) break
        seen.push(...page.map((row) => row.quota))
        before = { createdAt: page.at(-1)!.createdAt, id: page.at(-1)!.id }
      }
      const expected = rows.filter((row) => row.userId === 8).map((row) => row.quota!).reverse()
      expect(seen).toEqual(expected)
    })
  })
}

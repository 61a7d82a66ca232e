/**
 * The price tables and the prices found in them are remembered while the option store's `version` stays (one read
 * per request instead of nine option reads). Whatever changes a price option must be seen by the next lookup: a
 * write, a reload that found another node's write, and a second store (another app in the same process).
 */
import { describe, expect, test } from 'bun:test'
import { createOptionStore } from '../../src/options/store'
import { findPrice, groupRatio } from '../../src/metering/prices'

function memoryRepo(rows: Record<string, string> = {}) {
  return {
    rows,
    all: async () => ({ ...rows }),
    set: async (key: string, value: string) => void (rows[key] = value),
    delete: async (key: string) => void delete rows[key],
  }
}

const ratioOf = (store: Parameters<typeof findPrice>[0], model: string) => {
  const price = findPrice(store, model, 'default')
  return price?.mode === 'ratio' ? price.ratio : undefined
}

describe('remembered prices', () => {
  test('a write to a price option is priced at the next lookup; a write to another option keeps the tables', async () => {
    const full = createOptionStore(memoryRepo(), { ModelRatio: '{"memo-model":2}' })
    expect(ratioOf(full, 'memo-model')).toBe(2)
    expect(ratioOf(full, 'memo-model')).toBe(2)
    const before = full.version
    await full.set('ModelRatio', { 'memo-model': 3 })
    expect(full.version).toBeGreaterThan(before)
    expect(ratioOf(full, 'memo-model')).toBe(3)
    await full.set('GroupRatio', { vip: 0.5 })
    expect(groupRatio(full, 'vip')).toBe(0.5)
    expect(ratioOf(full, 'memo-model')).toBe(3)
  })

  test("a reload that finds another node's write is priced at the next lookup; one that finds nothing new keeps the version", async () => {
    const repo = memoryRepo({ ModelRatio: '{"memo-model":2}' })
    const store = createOptionStore(repo, await repo.all())
    expect(ratioOf(store, 'memo-model')).toBe(2)
    const version = store.version
    await store.reload()
    expect(store.version).toBe(version)
    repo.rows.ModelRatio = '{"memo-model":5}' // another node wrote it
    await store.reload()
    expect(ratioOf(store, 'memo-model')).toBe(5)
  })

  test('two stores in one process each see their own prices', async () => {
    const a = createOptionStore(memoryRepo({ ModelRatio: '{"memo-model":7}' }), { ModelRatio: '{"memo-model":7}' })
    const b = createOptionStore(memoryRepo({ ModelRatio: '{"memo-model":11}' }), { ModelRatio: '{"memo-model":11}' })
    expect(ratioOf(a, 'memo-model')).toBe(7)
    expect(ratioOf(b, 'memo-model')).toBe(11)
    expect(ratioOf(a, 'memo-model')).toBe(7)
  })
})

import { expect, test } from 'bun:test'
import type { NewLog } from '../../src/db/repos'
import { createLogWriter } from '../../src/metering/log-writer'
import { until } from '../helpers/wait'

const row = (i: number): NewLog => ({ type: 2, content: String(i) })

test('rows wait off the request path and reach the database in one batch per interval', async () => {
  const batches: NewLog[][] = []
  const writer = createLogWriter({ commitMetering: (rows) => void batches.push(rows) }, { intervalMs: 30, batchRows: 1000 })
  for (let i = 0; i < 10; i++) writer.push(row(i))
  expect(batches).toHaveLength(0)
  await until(() => batches.length > 0, { what: 'the interval\'s batch' })
  expect(batches).toHaveLength(1)
  expect(batches[0]!.map((r) => r.content)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
})

test('a full batch is written at once, without waiting for the interval', async () => {
  const batches: NewLog[][] = []
  const writer = createLogWriter({ commitMetering: (rows) => void batches.push(rows) }, { intervalMs: 10_000, batchRows: 5 })
  for (let i = 0; i < 5; i++) writer.push(row(i))
  await until(() => batches.length > 0, { timeout: 5000, what: 'the full batch' }) // the interval is 10 s: not it
  expect(batches.map((b) => b.length)).toEqual([5])
})

test('a failed write keeps its rows, in order, for the next flush: nothing is dropped', async () => {
  let fail = true
  const written: NewLog[] = []
  const writer = createLogWriter(
    {
      commitMetering: (rows) => {
        if (fail) throw new Error('database is locked')
        written.push(...rows)
      },
    },
    { intervalMs: 20 },
  )
  const error = console.error
  console.error = () => {}
  try {
    writer.push(row(1))
    writer.push(row(2))
    expect(await writer.flush()).toBe(0)
    writer.push(row(3))
    fail = false
    await until(() => written.length === 3, { what: 'the next flush' })
  } finally {
    console.error = error
  }
  expect(written.map((r) => r.content)).toEqual(['1', '2', '3'])
  expect(writer.pending).toBe(0)
  expect(writer.written).toBe(3)
})

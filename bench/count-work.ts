/**
 * A preload (`bun --preload bench/count-work.ts src/index.ts`) that counts work a gateway does, for
 * `bench/per-request-work.ts`: SQLite statements run (by SQL text, through bun:sqlite whatever the caller),
 * prepares, JSON.parse / JSON.stringify calls and fetches (globals' classes are not wrapped: `instanceof` would break). On SIGUSR2 it
 * writes the counts so far as JSON to `$COUNT_WORK_FILE`. Bench only: it wraps globals, which costs time, so
 * read its counts, never its timings.
 */
import { Database } from 'bun:sqlite'
import { writeFileSync } from 'node:fs'

const counts = { statements: 0, prepares: 0, jsonParse: 0, jsonStringify: 0, fetch: 0 }
const bySql = new Map<string, number>()

function ran(sql: string): void {
  counts.statements++
  bySql.set(sql, (bySql.get(sql) ?? 0) + 1)
}

const RUNNERS = ['get', 'all', 'iterate', 'values', 'raw', 'run'] as const
type Runner = (...args: unknown[]) => unknown

function counted<T extends object>(statement: T, sql: string): T {
  const own = statement as unknown as Record<string, Runner>
  for (const name of RUNNERS) {
    const original = own[name]
    if (typeof original !== 'function') continue
    own[name] = function (this: unknown, ...args: unknown[]) {
      ran(sql)
      return original.apply(this, args)
    }
  }
  return statement
}

const proto = Database.prototype as unknown as Record<string, (...args: any[]) => any>
for (const name of ['prepare', 'query'] as const) {
  const original = proto[name]!
  proto[name] = function (this: unknown, sql: string, ...rest: unknown[]) {
    counts.prepares++
    return counted(original.call(this, sql, ...rest), String(sql))
  }
}
for (const name of ['run', 'exec'] as const) {
  const original = proto[name]!
  proto[name] = function (this: unknown, sql: string, ...rest: unknown[]) {
    ran(String(sql))
    return original.call(this, sql, ...rest)
  }
}

const parse = JSON.parse
JSON.parse = function (...args: Parameters<typeof parse>) {
  counts.jsonParse++
  return parse(...args)
}
const stringify = JSON.stringify
JSON.stringify = function (...args: Parameters<typeof stringify>) {
  counts.jsonStringify++
  return stringify(...args)
} as typeof JSON.stringify
const realFetch = globalThis.fetch
globalThis.fetch = Object.assign(function (...args: Parameters<typeof fetch>) {
  counts.fetch++
  return realFetch(...args)
}, realFetch)
process.on('SIGUSR2', () => {
  const file = process.env.COUNT_WORK_FILE
  if (file) writeFileSync(file, JSON.stringify({ counts, bySql: Object.fromEntries(bySql) }))
})

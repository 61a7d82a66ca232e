import { expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const SRC = resolve(import.meta.dir, '../../src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'ui' ? [] : sourceFiles(path)
    return name.endsWith('.ts') ? [path] : []
  })
}

/** The src files (and counts) where `pattern` occurs, comments included: a second loop would show up here. */
function sites(pattern: RegExp): Record<string, number> {
  const found: Record<string, number> = {}
  for (const path of sourceFiles(SRC)) {
    const count = readFileSync(path, 'utf8').match(pattern)?.length ?? 0
    if (count > 0) found[relative(SRC, path)] = count
  }
  return found
}

// Chat and every other operation are jobs of one failover loop (relay/engine.ts): one place reads the attempt limit,
// reserves, and calls the settle hook, so a new kind of request (sessions, realtime, tasks) cannot grow its own.
test('one relay loop: one reservation, one settle call, one read of RelayMaxAttempts', () => {
  expect(sites(/\bhooks\.reserve\b/g)).toEqual({ 'relay/engine.ts': 1 })
  expect(sites(/\bhooks\.settle\(/g)).toEqual({ 'relay/engine.ts': 1 })
  expect(sites(/\.get<number>\('RelayMaxAttempts'\)/g)).toEqual({ 'relay/engine.ts': 1 })
  expect(sites(/\brunRelay\(/g)).toEqual({ 'relay/engine.ts': 1, 'relay/chat/job.ts': 1, 'operations/job.ts': 1, 'tasks/submit.ts': 1, 'tasks/video/submit.ts': 1, 'realtime/job.ts': 1, 'relay/responses/compact-job.ts': 1 })
})

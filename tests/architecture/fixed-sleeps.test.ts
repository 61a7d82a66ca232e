import { expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

/**
 * The suite waits on events, not on the clock (tests/README.md, rule 1). A fixed sleep is a wait for a set time
 * that no condition ends: `await Bun.sleep(100)` as a statement. Not counted: polls (a sleep inside a `while` or
 * `for` that tests a condition, as `until()` in tests/helpers/wait.ts does), timeouts raced against an event
 * (`Promise.race`), and `Bun.sleep(0)` / `setTimeout(…, 0)` ticks that let a render or a callback run.
 * The sleeps left are listed here per file, each file with its reason; a new one fails this test until it is
 * replaced by a wait on the event (or, if it truly cannot be, listed here with its reason, within MAX_FIXED_SLEEPS).
 */
const MAX_FIXED_SLEEPS = 40

const ALLOWED: Record<string, { count: number; why: string }> = {
  // the fake servers: latency a test asks for (delayMs, firstByteDelayMs, a slow auth), and a pause that lets the
  // frames already queued reach the socket before the fake cuts the connection (no event says bytes left)
  'tests/helpers/fake-upstreams/index.ts': { count: 1, why: 'a behavior\'s delayMs between frames' },
  'tests/helpers/fake-upstreams/bedrock.ts': { count: 2, why: 'delayMs, firstByteDelayMs' },
  'tests/helpers/fake-upstreams/vertex.ts': { count: 1, why: 'frames flushed before a cut' },
  'tests/helpers/fake-upstreams/completions.ts': { count: 2, why: 'frames flushed before a cut' },
  'tests/helpers/fake-upstreams/audio.ts': { count: 1, why: 'the slow voice a test asks for' },
  'tests/helpers/fake-upstreams/google-token.ts': { count: 1, why: 'the token endpoint\'s delay a test asks for' },
  'tests/modules/channels/console-lists.test.ts': { count: 2, why: 'a slow upstream, so that tests overlap and the concurrency bound shows' },
  // absence: proving something does NOT happen needs a bounded look (no event announces a non-event)
  'tests/metering/refusals.test.ts': { count: 4, why: 'no second log row and no charge arrive after the refusal\'s row' },
  'tests/relay/channels.test.ts': { count: 2, why: 'health writes are not awaited by the relay: after a success in between, or without auto_ban, the channel is NOT disabled a moment later' },
  'tests/relay/streams.test.ts': { count: 1, why: 'the aborted requests do NOT count against the channel\'s health' },
  'tests/cluster/invalidations.test.ts': { count: 2, why: 'a node\'s own message, and one before attach, are NOT applied' },
  'tests/e2e/harness.test.ts': { count: 1, why: 'an expected 401 adds no console error a moment later' },
  'tests/db/repos/checkpoints.test.ts': { count: 1, why: 'without the writer thread the database file does NOT grow' },
  'tests/coord/shared-state.test.ts': { count: 4, why: 'an unsubscribed node gets nothing more; a job holding the lease for a while; Redis TTLs (Redis\'s clock cannot be moved) outlived by renewal' },
  // a period crossed on a clock the test cannot move: Redis TTLs and rate windows, a lease renewed by a timer, a
  // pause the client makes that is itself the behavior under test
  'tests/coord/limits.test.ts': { count: 2, why: 'retryAfter on Redis\'s clock: still refused just before it is over; a TTL outlived' },
  'tests/coord/redis.test.ts': { count: 3, why: 'reconnect retries every 500 ms (one log line per node meanwhile); a lease renewed past its TTL' },
  'tests/db/postgres/quota-holds.test.ts': { count: 1, why: 'the live node\'s hold outlives its lease: renewed, not swept' },
  'tests/db/postgres/plan-holds.test.ts': { count: 1, why: 'the live node\'s plan take outlives its lease: renewed, not swept' },
  'tests/hardening-upstream/stalls.test.ts': { count: 2, why: 'a client pause shorter, then longer, than RelayStreamIdleSeconds (whole seconds)' },
  'tests/multi-node/three-nodes.test.ts': { count: 2, why: 'the claim is "no traffic within 1 s" of a disable; the live nodes\' last log batches before balances are compared' },
  'tests/hardening-upstream/money-races.test.ts': { count: 3, why: 'spends and edits spread over 50 ms on purpose (a race, not a wait); late settlements after the burst' },
}

const TESTS = resolve(import.meta.dir, '..')
const REPO = resolve(TESTS, '..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'artifacts' ? [] : sourceFiles(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

const SLEEP = /Bun\.sleep\(|[^\w.]sleep\(|=> ?setTimeout\(r|\bsettle\(\)|waitForTimeout\(/
const DEFINITION = /^(export )?const (sleep|settle) =|pg_sleep|function sleep/
const LOOP = /\b(while|for) ?\(/
const BLOCK_START = /^\s*(test|it|describe|beforeAll|beforeEach|afterAll|afterEach|export|async function|function)\b/
const indent = (line: string) => line.length - line.trimStart().length

/** True when a line at `index` sits inside a loop that opens within the 30 lines above it (a poll). */
function inLoop(lines: string[], index: number): boolean {
  for (let k = index - 1; k >= Math.max(0, index - 30); k--) {
    if (indent(lines[k]!) >= indent(lines[index]!)) continue
    if (LOOP.test(lines[k]!)) return true
    if (BLOCK_START.test(lines[k]!)) return false
  }
  return false
}

/** The fixed sleeps of one file's text, as "line: code" (`ui`: its `settle()` is tests/ui/dom.ts's tick). */
function fixedSleeps(text: string, ui = false): string[] {
  const lines = text.split('\n')
  return lines.flatMap((line, index) => {
    const code = line.trim()
    if (!SLEEP.test(code) || DEFINITION.test(code)) return []
    if (LOOP.test(code) || code.includes('Promise.race') || inLoop(lines, index)) return [] // a poll or a raced timeout
    if (/Bun\.sleep\(0\)/.test(code) || (ui && code.includes('settle()'))) return [] // a tick, not a time
    return [`${index + 1}: ${code}`]
  })
}

const found = sourceFiles(TESTS)
  .filter((path) => !path.endsWith('fixed-sleeps.test.ts'))
  .map((path) => ({ file: relative(REPO, path), sites: fixedSleeps(readFileSync(path, 'utf8'), relative(TESTS, path).startsWith('ui/')) }))

test('every fixed sleep left in tests/ is listed with its reason, no file has more than listed', () => {
  const over = found
    .filter(({ file, sites }) => sites.length > (ALLOWED[file]?.count ?? 0))
    .flatMap(({ file, sites }) => [`${file}: ${sites.length} fixed sleeps, ${ALLOWED[file]?.count ?? 0} allowed`, ...sites.map((site) => `${file}:${site}`)])
  expect(over).toEqual([])
})

test(`at most ${MAX_FIXED_SLEEPS} fixed sleeps in all, and the list holds no stale entry`, () => {
  const total = found.reduce((sum, { sites }) => sum + sites.length, 0)
  expect(total).toBeLessThanOrEqual(MAX_FIXED_SLEEPS)
  expect(Object.values(ALLOWED).reduce((sum, { count }) => sum + count, 0)).toBeLessThanOrEqual(MAX_FIXED_SLEEPS)
  // an entry whose sleeps were replaced goes down with them, so the list stays the truth
  const stale = Object.entries(ALLOWED).filter(([file, { count }]) => (found.find((f) => f.file === file)?.sites.length ?? 0) < count).map(([file]) => file)
  expect(stale).toEqual([])
})

test('the counter sees a fixed sleep, and passes over a poll, a raced timeout and a tick', () => {
  const sample = ['test("x", async () => {', '  await Bun.sleep(100)', '  while (!done()) {', '    await Bun.sleep(5)', '  }', '  await Promise.race([p, Bun.sleep(50)])', '  await Bun.sleep(0)', '})']
  expect(fixedSleeps(sample.join('\n'))).toEqual(['2: await Bun.sleep(100)'])
})

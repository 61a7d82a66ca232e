/**
 * Lane 4's client, its own process (started with BUN_CONFIG_MAX_HTTP_REQUESTS raised, so fetch does not
 * queue our side): open `count` slow streams spread over `rampMs`, read each to the end, check every frame.
 *   bun bench/many-streams.ts '<json: {url, headers, body, wire, count, expected, rampMs, timeoutMs}>'
 * Prints one JSON line with the counts.
 */
import { stream, type Req } from './clients'

interface Args extends Req {
  count: number
  expected: number
  rampMs: number
  timeoutMs: number
}

const args = JSON.parse(Bun.argv[2] ?? '{}') as Args
const abort = AbortSignal.timeout(args.timeoutMs)
let open = 0
let maxOpen = 0
const started = performance.now()
const results = await Promise.all(
  Array.from({ length: args.count }, async (_, i) => {
    await Bun.sleep((args.rampMs * i) / args.count)
    open++
    maxOpen = Math.max(maxOpen, open)
    try {
      return await stream(args, args.expected, abort)
    } finally {
      open--
    }
  }),
)
const failed = results.filter((r) => !r.ok)
const errors = new Map<string, number>()
for (const r of failed) {
  const key = (r.error ?? 'unknown').replace(/\d+/g, 'N').slice(0, 120)
  errors.set(key, (errors.get(key) ?? 0) + 1)
}
const framesExpected = args.count * args.expected
const framesGot = results.reduce((sum, r) => sum + r.deltas, 0)
console.log(JSON.stringify({
  count: args.count,
  ok: results.length - failed.length,
  failed: failed.length,
  framesExpected,
  framesGot,
  framesLost: framesExpected - framesGot,
  maxOpen,
  seconds: (performance.now() - started) / 1000,
  ttftP50: percentile(results.filter((r) => r.ok).map((r) => r.ttftMs), 50),
  ttftMax: percentile(results.filter((r) => r.ok).map((r) => r.ttftMs), 100),
  errors: Object.fromEntries(errors),
}))

function percentile(values: number[], p: number): number | null {
  if (!values.length) return null
  const sorted = values.sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

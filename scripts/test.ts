// `bun run test`: every test, in three phases (tests/README.md says why).
//   1. every file but those below, in four workers that keep their modules across files (--parallel=4
//      --no-isolate), slowest files first (tests/timings.json); TEST_PARALLEL=N for N workers, TEST_SERIAL=1 for
//      one process (as `bun test` alone runs);
//   2. the console's component tests (happy-dom), isolated: a DOM one file leaves behind fails the next;
//   3. the file whose claim is about latency, alone on a machine gone quiet: a flood's /healthz under 100 ms.
// With arguments (`bun run test tests/metering`), only those, in phase 1's way.
import { readFileSync } from 'node:fs'

const ISOLATED = ['tests/ui/**']
const ALONE = ['tests/hardening/soak.test.ts']
// TEST_UPDATE_TIMINGS=1: this run's durations go into tests/timings.json (each run file's entry; the others stay)
const TIMINGS = ['--timings=tests/timings.json', ...(process.env.TEST_UPDATE_TIMINGS === '1' ? ['--update-timings'] : [])]
const PARALLEL = ['test', '--timeout', '20000', '--parallel=4', ...TIMINGS]
const workers = process.env.TEST_SERIAL === '1' ? 1 : Number(process.env.TEST_PARALLEL ?? 4)
const BULK = workers > 1 ? ['test', '--timeout', '20000', `--parallel=${workers}`, '--no-isolate', ...TIMINGS] : ['test', '--timeout', '20000']

const run = (argv: string[]): number => Bun.spawnSync([process.execPath, ...argv], { stdio: ['inherit', 'inherit', 'inherit'] }).exitCode ?? 1

const args = Bun.argv.slice(2)
if (args.length > 0) process.exit(run([...BULK, ...args]))

/** Busy and total CPU ticks of the machine so far (/proc/stat's first line). */
function cpuTicks(): { busy: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    const total = fields.reduce((sum, n) => sum + n, 0)
    return { busy: total - fields[3]! - (fields[4] ?? 0), total }
  } catch {
    return undefined // not Linux: no wait
  }
}

/**
 * Phase 3 claims latency, so it starts when what the earlier phases left behind (gateways, databases and workers
 * still exiting) has gone quiet: two seconds in a row under a quarter of the machine busy, for at most 30 s.
 */
async function quietMachine(): Promise<void> {
  let quietSeconds = 0
  for (let second = 0; second < 30 && quietSeconds < 2; second++) {
    const before = cpuTicks()
    await Bun.sleep(1000) // a sample window, not a wait for an event: CPU use is only known over an interval
    const after = cpuTicks()
    if (!before || !after) return
    quietSeconds = (after.busy - before.busy) / Math.max(1, after.total - before.total) < 0.25 ? quietSeconds + 1 : 0
  }
}

const ignore = [...ISOLATED, ...ALONE].map((pattern) => `--path-ignore-patterns=${pattern}`)
const codes = [run([...BULK, ...ignore]), run([...PARALLEL, 'tests/ui'])]
await quietMachine()
codes.push(run(['test', '--timeout', '60000', ...ALONE]))
process.exit(codes.find((code) => code !== 0) ?? 0)

// `bun run test`: every test, in three phases (tests/README.md says why).
//   1. every file but those below, in four workers that keep their modules across files (--parallel=4
//      --no-isolate), slowest files first (tests/timings.json); TEST_PARALLEL=N for N workers, TEST_SERIAL=1 for
//      one process (as `bun test` alone runs);
//   2. the console's component tests (happy-dom), isolated: a DOM one file leaves behind fails the next;
//   3. the file whose claim is about latency, alone on the machine: a flood's /healthz under 100 ms.
// With arguments (`bun run test tests/metering`), only those, in phase 1's way.
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

const ignore = [...ISOLATED, ...ALONE].map((pattern) => `--path-ignore-patterns=${pattern}`)
const codes = [
  run([...BULK, ...ignore]),
  run([...PARALLEL, 'tests/ui']),
  run(['test', '--timeout', '60000', ...ALONE]),
]
process.exit(codes.find((code) => code !== 0) ?? 0)

/**
 * Does this machine run the same work slower after it has been idle? The same small piece of work (build 300
 * objects and stringify them: ~25 µs, about one of Tollgate's steps) is timed right after the previous one,
 * after sleeping 1, 3 and 20 ms (the thread idles, as a gateway does while the upstream answers), and after
 * spinning for as long instead (the thread stays busy). A request's own work between two waits is the same
 * whatever the wait, so a gap between the rows is the machine's (CPU idle states, a shared host's other work
 * in the caches), not the code's. agent-bodies.ts's `--upstream-ms` gives every body size the same wait.
 *
 *   bun bench/idle-penalty.ts [--runs=300]
 */
export {}
const runs = Number(Bun.argv.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 300)

function work(): number {
  const items: { i: number; s: string; n: number[] }[] = []
  for (let i = 0; i < 300; i++) items.push({ i, s: `x${i}`, n: [i, i + 1] })
  return JSON.stringify(items).length
}

const p50 = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!

async function timedAfter(gapMs: number, spin: boolean): Promise<number> {
  const times: number[] = []
  for (let k = 0; k < runs; k++) {
    if (spin) {
      const until = performance.now() + gapMs
      while (performance.now() < until) {}
    } else if (gapMs > 0) await Bun.sleep(gapMs)
    else await null
    const started = performance.now()
    work()
    times.push(performance.now() - started)
  }
  return p50(times) * 1000
}

for (let i = 0; i < 3000; i++) work() // compiled to its top tier first
const rows: string[] = ['| before the work | p50 µs |', '| --- | --- |', `| nothing (back to back) | ${(await timedAfter(0, false)).toFixed(1)} |`]
for (const gap of [1, 3, 20]) {
  rows.push(`| ${gap} ms asleep | ${(await timedAfter(gap, false)).toFixed(1)} |`)
  rows.push(`| ${gap} ms spinning | ${(await timedAfter(gap, true)).toFixed(1)} |`)
}
console.log(rows.join('\n'))

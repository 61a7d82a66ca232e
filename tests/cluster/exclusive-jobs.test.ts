/**
 * A job under a lease, on both coordination backends (nodes sharing one in-memory store, or one Redis): exactly one
 * node runs it; a holder that vanishes without giving its lease back (abandoned, as a crash) loses the job to
 * another once the lease lapses; one that stops gives it over at once.
 */
import { expect, test } from 'bun:test'
import { exclusiveJobs } from '../../src/cluster/exclusive-jobs'
import type { Coordination } from '../../src/coord/types'
import { forEachBackend, until } from '../coord/backends'

const TTL = 300

/** A node's job runner with a job that only records whether it runs here. */
function node(coord: Coordination) {
  const state = { running: false, starts: 0 }
  const jobs = exclusiveJobs(coord, [{ name: 'sweep', start: () => void ((state.running = true), state.starts++), stop: () => void (state.running = false) }], TTL)
  return { coord, jobs, state }
}
type Node = ReturnType<typeof node>
const running = (nodes: Node[]) => nodes.filter((n) => n.state.running)

forEachBackend((backend) => {
  test('one node runs the job; it moves when the holder dies, and at once when the holder stops', async () => {
    const nodes = (await backend.nodes(3)).map(node)
    for (const n of nodes) n.jobs.start()
    try {
      await until(() => running(nodes).length === 1, 10 * TTL, 'a holder') // a hang detector
      const [holder] = running(nodes) as [Node]
      expect(holder.jobs.held).toEqual(['sweep'])
      // three lease periods: still the one holder, never two
      for (const end = performance.now() + 3 * TTL; performance.now() < end; await Bun.sleep(20)) expect(running(nodes)).toEqual([holder])

      await holder.coord.close('abandon')
      await holder.jobs.stop()
      const rest = nodes.filter((n) => n !== holder)
      const moved = await until(() => running(rest).length === 1, 10 * TTL, 'a new holder after the crash') // a hang detector
      expect(moved).toBeGreaterThan(TTL / 3) // the lease was not given back: it lapsed
      expect(running(nodes)).toHaveLength(1)

      const [second] = running(rest) as [Node]
      const third = rest.find((n) => n !== second)!
      await third.jobs.stop() // nobody else tries meanwhile: what follows is the lease itself, not a runner's timing
      await second.jobs.stop()
      expect(second.state.running).toBe(false)
      // given back, not abandoned: free the moment stop() returned (an abandoned one stays held until it lapses)
      const lease = await third.coord.tryAcquireLease('job:sweep', TTL)
      expect(lease).not.toBeNull()
      await lease!.release()
      third.jobs.start()
      await until(() => running(rest).length === 1, 10 * TTL, 'a holder after the stop') // a hang detector
    } finally {
      for (const n of nodes) await n.jobs.stop() // a failure above must not leave runners taking the next test's lease
    }
  })

  // only Redis can lose a lease behind its holder's back (cleared, or taken provisionally during an outage)
  test.skipIf(!backend.raw)('a lease lost to another holder stops the job here', async () => {
    const [a, b] = await backend.nodes(2)
    const first = node(a!)
    first.jobs.start()
    try {
      await until(() => first.state.running, 10 * TTL, 'running') // a hang detector
      const raw = await backend.raw!()
      await raw.send('DEL', [`${backend.prefix!()}lease:job:sweep`])
      raw.close()
      expect(await b!.tryAcquireLease('job:sweep', 10_000)).not.toBeNull()
      await until(() => !first.state.running, 10 * TTL, 'stopped after losing the lease') // a hang detector
      expect(first.jobs.held).toEqual([])
    } finally {
      await first.jobs.stop()
    }
  })
})

test('stopping before any lease was taken leaves nothing running', async () => {
  const { createLocalCoordination } = await import('../../src/coord/local')
  const n = node(createLocalCoordination())
  n.jobs.start()
  await n.jobs.stop()
  expect(n.state.running).toBe(false)
  expect(n.state.starts).toBe(0)
  expect(n.jobs.held).toEqual([])
  await n.coord.close()
})

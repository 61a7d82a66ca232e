import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { REPO } from './process'

test('scripts/check-dockerfile.ts runs the Dockerfile stages without Docker: the same install and build, then the binary as the image starts it, healthy and stopped with 0', () => {
  const run = Bun.spawnSync(['bun', join(REPO, 'scripts/check-dockerfile.ts')], { cwd: REPO, stdout: 'pipe', stderr: 'pipe', timeout: 240_000 })
  const out = `${run.stdout.toString()}${run.stderr.toString()}`
  expect([run.exitCode, run.exitCode === 0 ? '' : out.slice(-3000)]).toEqual([0, ''])
  expect(out).toContain('RUN bun install --frozen-lockfile --production --ignore-scripts')
  expect(out).toContain('HEALTHCHECK tollgate health: /healthz: 200')
  expect(out).toContain('check-dockerfile: ok')
}, 250_000)

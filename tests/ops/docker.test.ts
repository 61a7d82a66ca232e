import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { REPO } from './process'

/**
 * The image, where Docker is: built from the Dockerfile, started on a volume, healthy by its own HEALTHCHECK,
 * non-root, and stopped cleanly. Skipped, with the reason, where Docker (its daemon, or the base images) is not
 * to be had. `scripts/check-dockerfile.ts` (dockerfile.test.ts) runs the same stages without Docker.
 */
const docker = Bun.which('docker')
const sh = (cmd: string[], timeoutMs = 60_000) => {
  const out = Bun.spawnSync(cmd, { stdout: 'pipe', stderr: 'pipe', timeout: timeoutMs })
  return { code: out.exitCode, text: `${out.stdout.toString()}${out.stderr.toString()}`.trim() }
}

function why(): string | undefined {
  if (!docker) return 'no docker command on this machine'
  const info = sh([docker, 'info', '--format', '{{.ServerVersion}}'], 15_000)
  if (info.code !== 0) return `the Docker daemon does not answer (${info.text.split('\n').at(-1)})`
  for (const image of ['oven/bun:1.4.5', 'debian:bookworm-slim']) {
    if (sh([docker, 'image', 'inspect', image], 15_000).code === 0) continue
    const pull = sh([docker, 'pull', image], 120_000)
    if (pull.code !== 0) return `the base image ${image} is neither here nor pullable (${pull.text.split('\n').at(-1)})`
  }
  return undefined
}

const skip = why()
if (skip) console.warn(`docker: image test skipped: ${skip}`)
const tag = `tollgate:test-${process.pid}`
const name = `tollgate-test-${process.pid}`

afterAll(() => {
  if (skip) return
  sh([docker!, 'rm', '-f', name])
  sh([docker!, 'volume', 'rm', '-f', `${name}-data`])
  sh([docker!, 'image', 'rm', '-f', tag])
})

test.skipIf(Boolean(skip))('docker build, run on a volume as a non-root user, HEALTHCHECK healthy, docker stop exits 0', async () => {
  const built = sh([docker!, 'build', '-t', tag, REPO], 600_000)
  expect([built.code, built.code === 0 ? '' : built.text.slice(-2000)]).toEqual([0, ''])
  const started = sh([docker!, 'run', '-d', '--name', name, '-p', '127.0.0.1::3000', '-v', `${name}-data:/data`, '-e', 'ROOT_PASSWORD=docker-root-password', '--health-interval=1s', tag])
  expect(started.code).toBe(0)
  let health = ''
  for (let i = 0; i < 60 && health !== 'healthy'; i++) {
    await Bun.sleep(500)
    health = sh([docker!, 'inspect', '-f', '{{.State.Health.Status}}', name]).text
  }
  expect(health).toBe('healthy')
  expect(sh([docker!, 'exec', name, 'id', '-u']).text).toBe('10001')
  const port = sh([docker!, 'port', name, '3000/tcp']).text.split(':').at(-1)
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
  expect(ready.status).toBe(200)
  expect(sh([docker!, 'inspect', '-f', '{{json .Config.Volumes}}', name]).text).toContain('/data')
  expect(sh([docker!, 'exec', name, 'tollgate', 'doctor']).code).toBe(0)
  const stopped = sh([docker!, 'stop', '-t', '40', name], 60_000)
  expect(stopped.code).toBe(0)
  expect(sh([docker!, 'inspect', '-f', '{{.State.ExitCode}}', name]).text).toBe('0')
  const logs = sh([docker!, 'logs', name]).text.split('\n').filter((l) => l.startsWith('{'))
  expect(logs.map((l) => JSON.parse(l).msg).at(-1)).toBe('stopped')
}, 700_000)

test('the Dockerfile and compose.yaml say what an operator relies on', async () => {
  const dockerfile = await Bun.file(join(REPO, 'Dockerfile')).text()
  expect(dockerfile).toMatch(/^FROM \S+ AS build$/m)
  expect(dockerfile).toMatch(/^USER tollgate$/m)
  expect(dockerfile).toMatch(/^VOLUME \/data$/m)
  expect(dockerfile).toMatch(/^HEALTHCHECK .*CMD \["tollgate", "health"\]$/m)
  const compose = await Bun.file(join(REPO, 'compose.yaml')).text()
  expect(compose).toContain('tollgate-data:/data')
  expect(compose).toContain('stop_grace_period: 40s')
})

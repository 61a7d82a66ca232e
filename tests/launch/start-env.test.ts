import { expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const module = join(import.meta.dir, '../../src/launch/start-env.ts')
const script = join(mkdtempSync(join(tmpdir(), 'tollgate-launch-')), 'probe.ts')
writeFileSync(script, `import { ensureStartEnv } from ${JSON.stringify(module)}
ensureStartEnv()
console.log(JSON.stringify({ pid: process.pid, max: process.env.BUN_CONFIG_MAX_HTTP_REQUESTS ?? null, purge: process.env.MIMALLOC_PURGE_DELAY ?? null, args: process.argv.slice(2) }))
`)

async function run(env: Record<string, string | undefined>) {
  const child = Bun.spawn(['bun', script, '--port', 'a b'], { env, stdout: 'pipe', stderr: 'pipe' })
  const out = await new Response(child.stdout).text()
  expect(await child.exited).toBe(0)
  const lines = out.trim().split('\n')
  expect(lines).toHaveLength(1) // the probe ran once: before the exec, nothing was printed
  return { pid: child.pid, seen: JSON.parse(lines[0]!) as { pid: number; max: string | null; purge: string | null; args: string[] } }
}

const unset = { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: undefined, MIMALLOC_PURGE_DELAY: undefined }

test('with neither set, the process replaces itself with both: same pid, same arguments', async () => {
  const { pid, seen } = await run(unset)
  expect(seen).toEqual({ pid, max: '65535', purge: '1000', args: ['--port', 'a b'] })
})

test("with one set by the operator, that one is kept and the other added", async () => {
  expect((await run({ ...unset, BUN_CONFIG_MAX_HTTP_REQUESTS: '1000' })).seen).toMatchObject({ max: '1000', purge: '1000' })
  expect((await run({ ...unset, MIMALLOC_PURGE_DELAY: '0' })).seen).toMatchObject({ max: '65535', purge: '0' })
})

test('with both set, nothing is re-executed', async () => {
  const { pid, seen } = await run({ ...unset, BUN_CONFIG_MAX_HTTP_REQUESTS: '1000', MIMALLOC_PURGE_DELAY: '250' })
  expect(seen).toEqual({ pid, max: '1000', purge: '250', args: ['--port', 'a b'] })
})

test('under --cpu-prof it does not re-execute (a profiler sample during execve killed the new image with SIGPWR)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-launch-prof-'))
  for (let i = 0; i < 3; i++) {
    const child = Bun.spawn(['bun', '--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100', script, '--port', 'a b'], { env: unset, stdout: 'pipe', stderr: 'pipe' })
    const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
    expect(await child.exited).toBe(0)
    expect(JSON.parse(out.trim())).toEqual({ pid: child.pid, max: null, purge: null, args: ['--port', 'a b'] })
    expect(err).toContain('set them in the environment')
  }
})

import { expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const module = join(import.meta.dir, '../../src/launch/max-http-requests.ts')
const script = join(mkdtempSync(join(tmpdir(), 'tollgate-launch-')), 'probe.ts')
writeFileSync(script, `import { ensureMaxHttpRequests } from ${JSON.stringify(module)}
ensureMaxHttpRequests()
console.log(JSON.stringify({ pid: process.pid, max: process.env.BUN_CONFIG_MAX_HTTP_REQUESTS ?? null, args: process.argv.slice(2) }))
`)

async function run(env: Record<string, string | undefined>) {
  const child = Bun.spawn(['bun', script, '--port', 'a b'], { env, stdout: 'pipe', stderr: 'pipe' })
  const out = await new Response(child.stdout).text()
  expect(await child.exited).toBe(0)
  return { pid: child.pid, seen: JSON.parse(out.trim().split('\n').at(-1)!) as { pid: number; max: string | null; args: string[] } }
}

test('without BUN_CONFIG_MAX_HTTP_REQUESTS the process replaces itself with the cap raised: same pid, same arguments', async () => {
  const env = { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: undefined }
  const { pid, seen } = await run(env)
  expect(seen).toEqual({ pid, max: '65535', args: ['--port', 'a b'] })
})

test('a cap set by the operator is kept and nothing is re-executed', async () => {
  const { pid, seen } = await run({ ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: '1000' })
  expect(seen).toEqual({ pid, max: '1000', args: ['--port', 'a b'] })
})

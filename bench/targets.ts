/**
 * The processes a bench run talks to: the fake upstream, Tollgate (compiled binary or source) set up over
 * its management API, and the Portkey gateway. Each is its own process on 127.0.0.1.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { START_ENV } from '../src/launch/start-env'
import { freePort, runChild, spawnChild, type Child } from './lib'

export const ROOT = resolve(import.meta.dir, '..')
export const UPSTREAM_KEY = 'sk-bench-upstream-0123456789'

export interface Fake {
  url: string
  port: number
  child: Child
}

export async function startFake(args: string[] = []): Promise<Fake> {
  const child = await spawnChild(['bun', join(ROOT, 'bench/fake-upstream.ts'), '--port', '0', ...args], {
    name: 'fake upstream',
    isReady: (line) => line.startsWith('{"port"'),
  })
  const port = (JSON.parse(child.readyLine) as { port: number }).port
  return { url: `http://127.0.0.1:${port}`, port, child }
}

/**
 * What a bare Bun proxy runs with to be the floor: the runtime settings Tollgate starts with (src/launch/start-env.ts),
 * which any Bun gateway can set. Without the allocator's, a large body faults fresh pages in that Tollgate does not,
 * and the floor is slower than Tollgate at 4 MB.
 */
export const FLOOR_ENV: Record<string, string> = { ...START_ENV }

/** The floor: a bare Bun proxy in front of the fake (see floor-proxy.ts); `wrap` runs it inside another command (a log tee), `env` adds to FLOOR_ENV. */
export async function startFloor(fake: Fake, opts: { wrap?: (cmd: string[]) => string[]; env?: Record<string, string> } = {}): Promise<Fake> {
  const cmd = ['bun', join(ROOT, 'bench/floor-proxy.ts'), '--upstream', fake.url, '--port', '0']
  const child = await spawnChild(opts.wrap ? opts.wrap(cmd) : cmd, {
    name: 'floor proxy',
    env: { ...FLOOR_ENV, ...opts.env },
    isReady: (line) => line.startsWith('{"port"'),
  })
  const port = (JSON.parse(child.readyLine) as { port: number }).port
  return { url: `http://127.0.0.1:${port}`, port, child }
}

export interface Gateway {
  url: string
  pid: number
  /** how it was started: binary path or `bun src/index.ts` */
  how: string
  key: string
  child: Child
  stop(): Promise<void>
}

/**
 * Which Tollgate to run: `build` compiles the current tree into a temp dir first (what users run, and
 * never stale), `binary` uses dist/tollgate as it is, `source` runs `bun src/index.ts`, anything else is a
 * path to a binary.
 */
export async function resolveGatewayCommand(mode: string, workDir: string): Promise<{ cmd: string[]; how: string; note?: string }> {
  const source = { cmd: ['bun', join(ROOT, 'src/index.ts')], how: 'bun src/index.ts' }
  if (mode === 'source') return source
  if (mode === 'build') {
    const out = join(workDir, 'tollgate')
    const started = performance.now()
    const built = await runChild(['bun', join(ROOT, 'scripts/build.ts'), out], { timeoutMs: 180_000 })
    if (built.code !== 0 || !existsSync(out)) {
      return { ...source, note: `build failed (${built.code}), ran from source: ${(built.stderr || built.stdout).slice(-300)}` }
    }
    return { cmd: [out], how: `compiled binary (built in ${((performance.now() - started) / 1000).toFixed(1)} s)` }
  }
  const path = mode === 'binary' ? join(ROOT, 'dist/tollgate') : resolve(mode)
  if (!existsSync(path)) return { ...source, note: `${path} missing, ran from source` }
  return { cmd: [path], how: `binary ${path}` }
}

export async function startGateway(
  cmd: string[],
  how: string,
  fake: Fake,
  models: { openai: string[]; chatOnly: string[]; anthropic?: string[] },
  env: Record<string, string> = {},
): Promise<Gateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-bench-'))
  const port = freePort()
  const password = 'bench-root-password-1'
  const child = await spawnChild([...cmd, '--port', String(port), '--data-dir', dataDir], {
    name: 'tollgate',
    cwd: dataDir,
    env: { ROOT_PASSWORD: password, HOST: '127.0.0.1', ...env },
    isReady: (line) => line.includes('listening on'),
  })
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    await child.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    const key = await setUp(url, password, fake, models)
    return { url, pid: child.pid, how, key, child, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Over the management API, as an operator would: a user, an unlimited token, channels at the fake. */
async function setUp(url: string, rootPassword: string, fake: Fake, models: { openai: string[]; chatOnly: string[]; anthropic?: string[] }): Promise<string> {
  const call = async (method: string, path: string, body: unknown, cookie?: string) => {
    const res = await fetch(url + path, {
      method,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    })
    const json = (await res.json()) as { success: boolean; message?: string; data?: any }
    if (!res.ok || !json.success) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`)
    return { json, cookie: res.headers.get('set-cookie')?.split(';')[0] }
  }
  const root = (await call('POST', '/api/user/login', { username: 'root', password: rootPassword })).cookie!
  await call('POST', '/api/user/', { username: 'bench', password: 'bench-password-1', quota: 1_000_000_000 }, root)
  // type 1 (OpenAI): chat passthrough, and messages → chat conversion (OpenAI does not speak Anthropic)
  await call('POST', '/api/channel/', { type: 1, name: 'bench-openai', key: UPSTREAM_KEY, base_url: fake.url, models: models.openai.join(','), group: 'default', auto_ban: 0 }, root)
  // type 8 (custom OpenAI-compatible) speaks only chat: responses → chat conversion
  await call('POST', '/api/channel/', { type: 8, name: 'bench-chat-only', key: UPSTREAM_KEY, base_url: fake.url, models: models.chatOnly.join(','), group: 'default', auto_ban: 0 }, root)
  // type 14 (Anthropic): Anthropic messages passthrough, for captured Claude Code requests
  if (models.anthropic?.length) {
    await call('POST', '/api/channel/', { type: 14, name: 'bench-anthropic', key: UPSTREAM_KEY, base_url: fake.url, models: models.anthropic.join(','), group: 'default', auto_ban: 0 }, root)
  }
  // metering on: every bench model has a token price (input like gpt-4o, output 4×), so each request is
  // priced, reserved and settled against the user's quota as in production
  const all = [...models.openai, ...models.chatOnly, ...(models.anthropic ?? [])]
  await call('PUT', '/api/option/', { key: 'ModelRatio', value: Object.fromEntries(all.map((m) => [m, 1.25])) }, root)
  await call('PUT', '/api/option/', { key: 'CompletionRatio', value: Object.fromEntries(all.map((m) => [m, 4])) }, root)
  const user = (await call('POST', '/api/user/login', { username: 'bench', password: 'bench-password-1' })).cookie!
  const token = await call('POST', '/api/token/', { name: 'bench', unlimited_quota: true, expired_time: -1 }, user)
  const key = String(token.json.data.key)
  return key.startsWith('sk-') ? key : `sk-${key}`
}

export interface Portkey {
  url: string
  pid: number
  child: Child
}

export async function startPortkey(): Promise<Portkey> {
  const script = join(ROOT, 'node_modules/@portkey-ai/gateway/build/start-server.js')
  if (!existsSync(script)) throw new Error('@portkey-ai/gateway is not installed (bun install)')
  const port = freePort()
  const child = await spawnChild(['bun', script, `--port=${port}`, '--headless'], {
    name: 'portkey',
    cwd: ROOT,
    isReady: (line) => line.includes('Ready for connections') || line.includes(`:${port}`),
    timeoutMs: 30_000,
  })
  const url = `http://127.0.0.1:${port}`
  // its banner prints before it listens on every address: wait for an answer
  for (let i = 0; i < 100; i++) {
    if (await fetch(url + '/').then(() => true, () => false)) break
    await Bun.sleep(50)
  }
  return { url, pid: child.pid, child }
}

export function portkeyHeaders(fake: Fake): Record<string, string> {
  return { 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${fake.url}/v1`, authorization: `Bearer ${UPSTREAM_KEY}` }
}

/** A temp dir for one bench run (a compiled gateway of ~120 MB, data dirs), removed when the process exits unless `keep` (a profile to read). */
export function tempDir(opts: { keep?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-run-'))
  if (!opts.keep) process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  return dir
}

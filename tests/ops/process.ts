import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cachedBinary } from '../e2e/binary-cache'
import { startTestApp, type TestApp } from '../helpers/test-app'
import { addUser } from '../helpers/accounts'
import { createToken } from '../../src/services/tokens/create-token'
import type { TokenFieldsInput } from '../../src/services/tokens/token-fields'

export const REPO = join(import.meta.dir, '../..')
export const ENTRY = join(REPO, 'src/index.ts')
/** `tollgate` from source, for what must run unbundled (the command line as `bun src/index.ts` sees it). */
export const FROM_SOURCE = ['bun', ENTRY]

/**
 * The command a test runs unless it names one: the compiled gateway, built once per source tree for the whole
 * run (tests/e2e/binary-cache.ts). It starts in about half the CPU of `bun src/index.ts`, and the suite starts
 * it a few hundred times.
 */
const gateway = async (cmd: string[] | undefined) => cmd ?? [await cachedBinary()]

/** Only what a command needs from the environment: nothing of the shell's Tollgate settings leaks in. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), LOG_FORMAT: 'json', ...extra }
}

/** `tollgate <args>` (the compiled gateway, or `options.cmd`), to the end: exit code, stdout, stderr. */
export async function tollgate(args: string[], options: { env?: Record<string, string>; stdin?: string; cmd?: string[] } = {}) {
  const proc = Bun.spawn([...(await gateway(options.cmd)), ...args], {
    env: cleanEnv(options.env),
    stdin: options.stdin === undefined ? 'ignore' : new TextEncoder().encode(options.stdin),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, stdout, stderr }
}

export interface Served {
  url: string
  port: number
  proc: import('bun').Subprocess<'ignore', 'pipe', 'pipe'>
  output(): string
  /** the JSON log lines so far */
  lines(): Record<string, any>[]
  /** send a signal and wait for the exit code */
  stop(signal?: NodeJS.Signals): Promise<number>
}

/** `tollgate serve` (the compiled gateway, or `cmd`) as its own process on a free loopback port, until its "listening on" line. */
export async function serve(dataDir: string, env: Record<string, string> = {}, cmd?: string[]): Promise<Served> {
  const proc = Bun.spawn([...(await gateway(cmd)), 'serve', '--port', '0', '--data-dir', dataDir], {
    env: cleanEnv({ HOST: '127.0.0.1', ...env }),
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let out = ''
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    const reader = stream.getReader()
    for (let part = await reader.read(); !part.done; part = await reader.read()) out += decoder.decode(part.value, { stream: true })
  }
  const drained = Promise.all([pump(proc.stdout), pump(proc.stderr)])
  const deadline = Date.now() + 45_000 // a hang detector: a loaded machine took over 20 s to load the source
  let port: number | undefined
  while (port === undefined && Date.now() < deadline && proc.exitCode === null) {
    const line = out.split('\n').find((l) => l.includes('listening on'))
    if (line) port = JSON.parse(line).port
    else await Bun.sleep(25)
  }
  if (port === undefined) {
    proc.kill('SIGKILL')
    throw new Error(`tollgate serve did not start within 45 s:\n${out}`)
  }
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, any>)
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    proc,
    output: () => out,
    lines,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null) proc.kill(signal)
      const code = await proc.exited
      await drained
      return code
    },
  }
}

export interface Prepared {
  dataDir: string
  /** an unlimited API key of alice */
  key: string
  channelId: number
}

/**
 * A data dir as a running instance leaves it: root (ROOT_PASSWORD of the test app), alice, a channel at
 * `upstreamUrl` with a sealed key, and an API key; then the app is closed (the dir stays).
 */
export async function prepareDataDir(upstreamUrl: string, upstreamKey: string, models = 'gpt-4o'): Promise<Prepared> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-ops-'))
  const app: TestApp = await startTestApp({}, undefined, dataDir)
  // priced like a real instance (the test app serves unknown models free)
  await app.deps.options.set('SelfUseModeEnabled', false)
  const alice = await addUser(app, { username: 'alice', quota: 1_000_000_000 })
  const [channel] = await app.deps.routing.channels.create([{ type: 1, name: 'upstream', baseUrl: upstreamUrl, keyText: upstreamKey, models, group: 'default' }])
  const key = (await createToken(app.deps, { user: alice, fields: { name: 'load', unlimited_quota: true } as TokenFieldsInput })).key
  await app.close()
  return { dataDir, key, channelId: channel!.id }
}

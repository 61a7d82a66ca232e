import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from './fake-upstreams'

/**
 * Sessions of real coding agents for affinity tests: the captured requests (tests/fixtures/clients), grown one turn
 * at a time as the client grows them, and channels on separate fake upstreams so one can be killed mid-session.
 */
export interface Capture {
  url: string
  headers: Record<string, string>
  body: Record<string, any>
}

export function capture(name: string): Capture {
  return JSON.parse(readFileSync(join(import.meta.dir, '../fixtures/clients', `${name}.json`), 'utf8')) as Capture
}

/** The capture's headers with `key` for the gateway (cut header values dropped, as in client-fixtures.test.ts). */
export function clientHeaders(c: Capture, key: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(c.headers)) {
    const lower = name.toLowerCase()
    if (lower === 'host' || lower === 'content-length' || !/^[\x20-\x7e\t]*$/.test(value)) continue
    if (lower === 'authorization') out[name] = `Bearer ${key}`
    else if (lower === 'x-api-key') out[name] = key
    else out[name] = value
  }
  if (!out.authorization && !out['x-api-key']) out.authorization = `Bearer ${key}`
  return out
}

/** Claude Code's turn `n` (0-based): the captured follow-up with `n` more read-a-file rounds. */
export function claudeTurn(c: Capture, n: number): Record<string, any> {
  const body = structuredClone(c.body)
  const last = body.messages.pop()
  for (let i = 0; i < n; i++) {
    const id = `toolu_${String(i).padStart(24, '0')}`
    body.messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: `/src/file-${i}.ts` } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `contents of file ${i} `.repeat(50) }] },
    )
  }
  body.messages.push(last)
  return body
}

/** Codex's turn `n`: the captured follow-up with `n` more exec_command rounds in `input`. */
export function codexTurn(c: Capture, n: number): Record<string, any> {
  const body = structuredClone(c.body)
  for (let i = 0; i < n; i++) {
    body.input.push(
      { type: 'function_call', id: `fc_${i}`, call_id: `call_${i}`, name: 'exec_command', arguments: JSON.stringify({ cmd: `cat file-${i}` }) },
      { type: 'function_call_output', call_id: `call_${i}`, output: `output ${i} `.repeat(50) },
    )
  }
  return body
}

export interface AgentUpstream {
  upstream: FakeUpstream
  keys: string[]
}

/** `count` fake upstreams, each accepting its own `keysEach` keys. */
export async function agentUpstreams(count = 3, keysEach = 3): Promise<AgentUpstream[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const keys = Array.from({ length: keysEach }, (_, j) => `sk-upstream-${i}-key-${j}-0123456789`)
      return { upstream: await startFakeUpstream({ keys }), keys }
    }),
  )
}

/** Which upstream (index) and key a recorded request reached. */
export function servedBy(upstreams: AgentUpstream[], since: number[]): { upstream: number; key: string }[] {
  const out: { upstream: number; key: string }[] = []
  upstreams.forEach((u, i) => {
    for (const rec of u.upstream.requests.slice(since[i] ?? 0)) {
      if (rec.kind !== 'generate') continue
      out.push({ upstream: i, key: rec.headers['x-api-key'] ?? (rec.headers.authorization ?? '').replace(/^Bearer /, '') })
    }
  })
  return out
}

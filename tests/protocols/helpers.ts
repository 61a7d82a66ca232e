import type { StreamEvent, Usage } from '../../src/ir/index.ts'
import { parseSseText, type SseEvent } from '../../src/protocols/sse.ts'
import type { Protocol } from '../../src/protocols/types.ts'

export const USAGE: Usage = { input: { noCache: 100, cacheRead: 50, cacheWrite: 10 }, output: { text: 30, reasoning: 12 } }

/** Deterministic ids: prefix + counter. */
function ids(): (prefix: string) => string {
  let n = 0
  return (prefix) => `${prefix}${++n}`
}

/** A reply with reasoning, text and two parallel tool calls whose argument deltas interleave. */
export function toolScript(reasoning: Partial<Extract<StreamEvent, { type: 'reasoning-end' }>> = { signature: 'sig-1', origin: 'anthropic' }): StreamEvent[] {
  return [
    { type: 'start', id: 'msg_abc', model: 'upstream-model', created: 1700000000 },
    { type: 'reasoning-start', id: 'r0' },
    { type: 'reasoning-delta', id: 'r0', delta: 'Let me ' },
    { type: 'reasoning-delta', id: 'r0', delta: 'think.' },
    { type: 'reasoning-end', id: 'r0', ...reasoning },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'Running ' },
    { type: 'text-delta', id: 't1', delta: 'tools.' },
    { type: 'text-end', id: 't1' },
    { type: 'tool-input-start', id: 'call_a', name: 'Bash', index: 0 },
    { type: 'tool-input-start', id: 'call_b', name: 'Read', index: 1 },
    { type: 'tool-input-delta', id: 'call_a', delta: '{"command":' },
    { type: 'tool-input-delta', id: 'call_b', delta: '{"file_path":"/x"}' },
    { type: 'tool-input-delta', id: 'call_a', delta: '"ls"}' },
    { type: 'tool-input-end', id: 'call_a' },
    { type: 'tool-input-end', id: 'call_b' },
    { type: 'usage', usage: USAGE },
    { type: 'finish', reason: { unified: 'tool_calls' } },
  ]
}

export function encodeAll(p: Protocol, events: StreamEvent[], opts: Parameters<Protocol['createStreamEncoder']>[0] = {}): string[] {
  const enc = p.createStreamEncoder({ newId: ids(), now: () => 1700000000, ...opts })
  const out: string[] = []
  for (const e of events) out.push(...enc.push(e))
  out.push(...enc.end())
  return out
}

export function decodeAll(p: Protocol, sse: string | SseEvent[]): StreamEvent[] {
  const dec = p.createStreamDecoder()
  const evs = typeof sse === 'string' ? parseSseText(sse) : sse
  const out: StreamEvent[] = []
  for (const e of evs) out.push(...dec.push(e))
  out.push(...dec.end())
  return out
}

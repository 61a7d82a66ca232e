import type { Plan, RecordedRequest, Scenario } from './types'

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const HEX = '0123456789abcdef'

export function randomString(length: number, alphabet = ALNUM): string {
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)]
  return out
}
export const randomHex = (length: number) => randomString(length, HEX)

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export const nowSeconds = () => Math.floor(Date.now() / 1000)

/** Split text into `n` pieces of about equal length (by code point), none empty unless text is. */
function split(text: string, n: number): string[] {
  const chars = Array.from(text)
  if (chars.length === 0) return []
  const count = Math.max(1, Math.min(n, chars.length))
  const size = Math.ceil(chars.length / count)
  const out: string[] = []
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''))
  return out
}

const pieces = (value: string | string[] | undefined, n: number | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : split(value, n ?? 3)

/** Normalize a scenario for the encoders. */
export function makePlan(s: Scenario, requestedModel: string): Plan {
  const reasoning = pieces(s.reasoning, s.reasoningDeltas)
  const tools = (s.toolCalls ?? []).map((t) => {
    const args = typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments ?? {})
    const fragments = Array.isArray(t.fragments) ? t.fragments : split(args, t.fragments ?? 3)
    if (fragments.join('') !== args) throw new Error(`fake upstream: fragments of ${t.name} do not join to its arguments`)
    return { id: t.id, name: t.name, args, fragments }
  })
  const r = s.usage?.reasoning ?? (reasoning.length > 0 ? 5 : 0)
  return {
    text: pieces(s.text, s.textDeltas),
    reasoning,
    signature: s.signature ?? (reasoning.length > 0 || tools.length > 0 ? 'sig_' + randomString(48) : ''),
    tools,
    usage: {
      input: s.usage?.input ?? 10,
      cacheRead: s.usage?.cacheRead ?? 0,
      cacheWrite: s.usage?.cacheWrite ?? 0,
      cacheWrite1h: s.usage?.cacheWrite1h ?? 0,
      output: s.usage?.output ?? 20 + r,
      reasoning: r,
    },
    finish: s.finish ?? (tools.length > 0 ? 'tool_calls' : 'stop'),
    rawFinish: s.rawFinish,
    model: s.model ?? requestedModel,
    s,
  }
}

/** All prompt tokens, the way OpenAI and Gemini count them (cache reads and writes included). */
export const promptTotal = (p: Plan) => p.usage.input + p.usage.cacheRead + p.usage.cacheWrite

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

/** The token of an `Authorization: Bearer …` header, if any. */
export function bearer(rec: RecordedRequest): string | undefined {
  const m = /^Bearer\s+(.+)$/i.exec(rec.headers['authorization'] ?? '')
  return m?.[1]?.trim()
}

export const isObject = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Mask a key the way OpenAI does in its 401 message: sk-abc***wxyz */
export const maskKey = (key: string) => (key.length <= 8 ? '***' : `${key.slice(0, 3)}***${key.slice(-4)}`)

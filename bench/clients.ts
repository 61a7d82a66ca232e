/** Bun clients where an exact per-request time is needed: one request at a time, and streams frame by frame. */

export type Wire = 'chat' | 'messages' | 'responses'

export interface Req {
  url: string
  headers: Record<string, string>
  body: string
  wire: Wire
}

export interface SequentialResult {
  ms: number[]
  errors: number
  firstError?: string
  /** x-tollgate-overhead-ms values, when the answer carried one */
  overheadMs: number[]
}

/** `n` requests one after another over keep-alive; each timed from send to the last body byte. */
export async function sequential(req: Req, n: number): Promise<SequentialResult> {
  const out: SequentialResult = { ms: [], errors: 0, overheadMs: [] }
  const init = { method: 'POST', headers: req.headers, body: req.body }
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    try {
      const res = await fetch(req.url, init)
      const text = await res.text()
      const t1 = performance.now()
      if (res.status !== 200) {
        out.errors++
        out.firstError ??= `${res.status} ${text.slice(0, 200)}`
        continue
      }
      out.ms.push(t1 - t0)
      const overhead = res.headers.get('x-tollgate-overhead-ms')
      if (overhead) out.overheadMs.push(Number(overhead))
    } catch (error) {
      out.errors++
      out.firstError ??= String(error)
    }
  }
  return out
}

export interface StreamResult {
  ok: boolean
  error?: string
  /** send → first content delta */
  ttftMs: number
  /** arrival gaps between consecutive content deltas */
  gapsMs: number[]
  deltas: number
}

const expectedText = (i: number) => `w${i} `

/** Text of a content delta event in each wire format, or undefined for other events. */
function deltaOf(wire: Wire, data: string): string | undefined {
  if (wire === 'chat') {
    if (!data.startsWith('{') || !data.includes('"content"')) return undefined
    const chunk = JSON.parse(data) as { choices?: { delta?: { content?: string | null } }[] }
    const content = chunk.choices?.[0]?.delta?.content
    return typeof content === 'string' && content !== '' ? content : undefined
  }
  if (wire === 'messages') {
    if (!data.includes('"content_block_delta"')) return undefined
    const event = JSON.parse(data) as { delta?: { type?: string; text?: string } }
    return event.delta?.type === 'text_delta' ? event.delta.text : undefined
  }
  if (!data.includes('"response.output_text.delta"')) return undefined
  return (JSON.parse(data) as { delta?: string }).delta
}

/**
 * One stream: every content delta must arrive as its own event, in order, with the text the fake sent
 * (`w0 `, `w1 ` …), `expected` of them; nothing lost, merged or reordered.
 */
export async function stream(req: Req, expected: number, signal?: AbortSignal): Promise<StreamResult> {
  const result: StreamResult = { ok: false, ttftMs: NaN, gapsMs: [], deltas: 0 }
  const t0 = performance.now()
  let last = 0
  try {
    const res = await fetch(req.url, { method: 'POST', headers: req.headers, body: req.body, signal })
    if (res.status !== 200 || !res.body) {
      result.error = `${res.status} ${(await res.text()).slice(0, 200)}`
      return result
    }
    const decoder = new TextDecoder()
    let buffer = ''
    const reader = res.body.getReader()
    for (;;) {
      const { done, value: chunk } = await reader.read()
      if (done) break
      const now = performance.now()
      buffer += decoder.decode(chunk, { stream: true })
      let end: number
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        for (const line of frame.split('\n')) {
          if (!line.startsWith('data:')) continue
          const text = deltaOf(req.wire, line.slice(5).trimStart())
          if (text === undefined) continue
          if (text !== expectedText(result.deltas)) {
            result.error = `delta ${result.deltas}: expected ${JSON.stringify(expectedText(result.deltas))}, got ${JSON.stringify(text.slice(0, 60))}`
            return result
          }
          if (result.deltas === 0) result.ttftMs = now - t0
          else result.gapsMs.push(now - last)
          last = now
          result.deltas++
        }
      }
    }
    if (result.deltas !== expected) {
      result.error = `got ${result.deltas} of ${expected} deltas`
      return result
    }
    result.ok = true
    return result
  } catch (error) {
    result.error = String(error)
    return result
  }
}

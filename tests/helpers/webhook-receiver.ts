/**
 * A notification webhook's far end on loopback: records every POST (raw body, headers), answers the statuses queued
 * with `answer(...)` (then 200), and `next()` waits for the next request (an event, never a sleep).
 */
interface ReceivedHook {
  path: string
  headers: Headers
  body: string
  json: Record<string, unknown>
}

export interface WebhookReceiver {
  url: string
  received: ReceivedHook[]
  /** the statuses the next requests get, in order; 200 after */
  answer(...statuses: number[]): void
  /** the next request answered 200 */
  next(timeoutMs?: number): Promise<ReceivedHook>
  /** forget every request so far */
  reset(): void
  stop(): void
}

export function startWebhookReceiver(): WebhookReceiver {
  const received: ReceivedHook[] = []
  const statuses: number[] = []
  const waiting: ((hook: ReceivedHook) => void)[] = []
  // answered 200 and not yet handed out by next()
  const delivered: ReceivedHook[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const body = await req.text()
      let json: Record<string, unknown> = {}
      try {
        json = JSON.parse(body)
      } catch {
        // recorded as it came
      }
      const hook = { path: new URL(req.url).pathname, headers: req.headers, body, json }
      received.push(hook)
      const status = statuses.shift() ?? 200
      if (status === 200) {
        const waiter = waiting.shift()
        if (waiter) waiter(hook)
        else delivered.push(hook)
      }
      return new Response(status === 200 ? 'ok' : 'no', { status })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    received,
    answer: (...s) => void statuses.push(...s),
    next(timeoutMs = 10_000) {
      const ready = delivered.shift()
      if (ready) return Promise.resolve(ready)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no webhook within ${timeoutMs} ms`)), timeoutMs)
        waiting.push((hook) => {
          clearTimeout(timer)
          resolve(hook)
        })
      })
    },
    reset() {
      received.length = 0
      delivered.length = 0
      statuses.length = 0
    },
    stop: () => void server.stop(true),
  }
}

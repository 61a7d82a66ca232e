/**
 * One HTTP/1.1 request over its own socket (`Connection: close`), written as given: a declared
 * `content-length` with no body behind it is sent as such (fetch would not). Resolves with the status, or
 * 'timeout' when no status line came within `timeoutMs` (a wedged server), or 'error' when the connection failed.
 */
export function rawRequest(
  baseUrl: string,
  head: { method: string; path: string; headers?: Record<string, string> },
  body = '',
  timeoutMs = 3000,
): Promise<number | 'timeout' | 'error'> {
  const url = new URL(baseUrl)
  const lines = [`${head.method} ${head.path} HTTP/1.1`, `host: ${url.host}`, 'connection: close']
  for (const [name, value] of Object.entries(head.headers ?? {})) lines.push(`${name}: ${value}`)
  const bytes = Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`)
  return new Promise((resolve) => {
    let text = ''
    let done = false
    let socket: { end(): void } | undefined
    const finish = (outcome: number | 'timeout' | 'error') => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket?.end()
      resolve(outcome)
    }
    const timer = setTimeout(() => finish('timeout'), timeoutMs)
    Bun.connect({
      hostname: url.hostname,
      port: Number(url.port),
      socket: {
        open(s) {
          socket = s
          s.write(bytes)
        },
        data(_s, data) {
          text += Buffer.from(data).toString('latin1')
          const status = /^HTTP\/1\.1 (\d{3})/.exec(text)
          if (status) finish(Number(status[1]))
        },
        close: () => finish('error'),
        error: () => finish('error'),
        connectError: () => finish('error'),
      },
    }).catch(() => finish('error'))
  })
}

/** Run `task(i)` for i in [0, count) with at most `concurrency` at once; the first failure rejects and stops the rest. */
export async function pool(count: number, concurrency: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0
  let failed = false
  const worker = async () => {
    while (next < count && !failed) {
      try {
        await task(next++)
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
}

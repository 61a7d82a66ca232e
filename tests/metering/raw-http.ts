/**
 * A bare HTTP/1.1 POST over its own TCP socket (`Connection: close`). Bun's fetch allows 256 connections
 * per process at a time; the concurrency tests need 1,000 truly simultaneous requests, and the gateway in
 * the same process needs its own fetches to the upstream, so the test's side bypasses fetch.
 */
export function rawPost(baseUrl: string, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  const url = new URL(baseUrl)
  const payload = Buffer.from(body)
  const head =
    `POST ${path} HTTP/1.1\r\nhost: ${url.host}\r\nconnection: close\r\ncontent-length: ${payload.length}\r\n` +
    Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('') +
    '\r\n'
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let settled = false
    const finish = () => {
      if (settled) return
      settled = true
      const text = Buffer.concat(chunks).toString('utf8')
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)
      if (!status) return reject(new Error(`no HTTP status in ${JSON.stringify(text.slice(0, 200))}`))
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) })
    }
    Bun.connect({
      hostname: url.hostname,
      port: Number(url.port),
      socket: {
        open(socket) {
          socket.write(Buffer.concat([Buffer.from(head), payload]))
        },
        data(_socket, data) {
          chunks.push(Buffer.from(data))
        },
        close: finish,
        end(socket) {
          socket.end()
        },
        error(_socket, error) {
          if (!settled) ((settled = true), reject(error))
        },
        connectError(_socket, error) {
          if (!settled) ((settled = true), reject(error))
        },
      },
    }).catch(reject)
  })
}

/**
 * The outbound guard's WebSocket side (`Outbound.webSocket` in ./fetch.ts checks the target first): the socket goes
 * to the address that was checked, with the name in Host and in the TLS server name, as `fetch` pins a request. A
 * handshake answered with anything but 101 (a redirect included) is a failure naming the status; the promise
 * resolves only once the far end accepted.
 */

export interface WebSocketInit {
  headers: Record<string, string>
  protocols?: string[]
  /** abandons the dial (and closes a socket that opened meanwhile) */
  signal?: AbortSignal
}

/** Bun's constructor, which takes headers and TLS options besides the protocols (the DOM's typing knows only the latter). */
const BunWebSocket = WebSocket as unknown as new (url: string, options: Bun.WebSocketOptions) => WebSocket

export type OutboundWebSocket = (url: string, init: WebSocketInit) => Promise<WebSocket>

/** The far end refused the handshake (`status`: its HTTP status, 0 when the connection itself failed). */
export class WebSocketDialFailed extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** `pinned`: the dialled URL (http(s), its host the checked address); `named`: the URL as the caller gave it, for messages. */
export function dialWebSocket(pinned: string, named: string, pin: { host?: string; serverName?: string }, init: WebSocketInit): Promise<WebSocket> {
  const url = pinned.replace(/^http/, 'ws')
  const headers = pin.host ? { ...withoutHost(init.headers), host: pin.host } : init.headers
  const options = { headers, protocols: init.protocols ?? [], ...(pin.serverName ? { tls: { serverName: pin.serverName } } : {}), perMessageDeflate: false }
  return new Promise<WebSocket>((resolve, reject) => {
    if (init.signal?.aborted) return reject(init.signal.reason)
    const socket = new BunWebSocket(url, options)
    const done = () => {
      socket.removeEventListener('open', opened)
      socket.removeEventListener('error', failed)
      socket.removeEventListener('close', failed)
      init.signal?.removeEventListener('abort', aborted)
    }
    const opened = () => {
      done()
      resolve(socket)
    }
    const failed = (event: Event) => {
      done()
      const message = ((event as ErrorEvent).message || `closed before it opened (${(event as CloseEvent).code ?? 'no code'})`).replaceAll(url, named)
      reject(new WebSocketDialFailed(Number(/Expected 101 status code: (\d+)/.exec(message)?.[1] ?? 0), `WebSocket to ${named}: ${message}`))
    }
    const aborted = () => {
      done()
      socket.close()
      reject(init.signal!.reason)
    }
    socket.addEventListener('open', opened)
    socket.addEventListener('error', failed)
    socket.addEventListener('close', failed)
    init.signal?.addEventListener('abort', aborted)
  })
}

function withoutHost(headers: Record<string, string>): Record<string, string> {
  const copy = { ...headers }
  for (const name of Object.keys(copy)) if (name.toLowerCase() === 'host') delete copy[name]
  return copy
}

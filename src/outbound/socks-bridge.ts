/**
 * SOCKS5 for fetch, which speaks only HTTP proxies: a loopback listener that takes fetch's proxy requests (CONNECT
 * for HTTPS, an absolute-form request for plain HTTP) and carries each through the SOCKS5 proxy (RFC 1928, with
 * RFC 1929's user and password). A call is admitted with a one-time ticket (its proxy credentials): the ticket
 * names the SOCKS proxy's checked address and the target's checked address and port, and the bridge refuses any
 * other destination, so it is no open proxy for anything else on the host.
 */
import { randomBytes } from 'node:crypto'
import { connect, createServer, isIP, type Socket } from 'node:net'

interface Admission {
  socks: { address: string; port: number; user: string; password: string }
  target: { address: string; port: number }
}

interface Ticket {
  proxyUrl: string
  drop(): void
}

const HEAD_LIMIT = 64 * 1024
const HANDSHAKE_TIMEOUT_MS = 10_000

class SocksBridge {
  private readonly tickets = new Map<string, Admission>()
  private listening: Promise<number> | undefined

  async admit(admission: Admission): Promise<Ticket> {
    const port = await this.listen()
    const id = randomBytes(16).toString('hex')
    this.tickets.set(id, admission)
    return {
      proxyUrl: `http://t:${id}@127.0.0.1:${port}`,
      drop: () => this.tickets.delete(id),
    }
  }

  private listen(): Promise<number> {
    this.listening ??= new Promise((resolve, reject) => {
      const server = createServer((client) => this.serve(client))
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port))
      server.unref() // opened on first use, never what keeps the process alive
    })
    return this.listening
  }

  private serve(client: Socket): void {
    let head = Buffer.alloc(0)
    client.setTimeout(HANDSHAKE_TIMEOUT_MS, () => client.destroy())
    client.on('error', () => client.destroy())
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end < 0) {
        if (head.length > HEAD_LIMIT) refuse(client, 431)
        return
      }
      client.off('data', onData)
      client.pause()
      void this.forward(client, head.subarray(0, end + 4).toString('latin1'), head.subarray(end + 4))
    }
    client.on('data', onData)
  }

  private async forward(client: Socket, head: string, rest: Buffer): Promise<void> {
    const lines = head.split('\r\n')
    const [method, target] = (lines[0] ?? '').split(' ')
    const admission = this.tickets.get(ticketOf(lines))
    if (!admission || !method || !target) return refuse(client, 407)
    const destination = method === 'CONNECT' ? hostPort(`http://${target}`) : hostPort(target)
    if (!destination || destination.port !== admission.target.port || !sameHost(destination.host, admission.target.address)) return refuse(client, 403)
    let upstream: Socket
    try {
      upstream = await socksConnect(admission)
    } catch {
      return refuse(client, 502)
    }
    client.setTimeout(0)
    if (method === 'CONNECT') client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    else upstream.write(originForm(lines, target))
    if (rest.length) upstream.write(rest)
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
    client.pipe(upstream)
    upstream.pipe(client)
    client.resume()
  }
}

function refuse(client: Socket, status: number): void {
  client.end(`HTTP/1.1 ${status} Refused\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`)
}

/** The ticket in fetch's Proxy-Authorization (Basic `t:<ticket>`). */
function ticketOf(lines: string[]): string {
  const header = lines.find((l) => l.toLowerCase().startsWith('proxy-authorization:'))
  const basic = header?.slice(header.indexOf(':') + 1).trim().replace(/^Basic\s+/i, '')
  const decoded = basic ? Buffer.from(basic, 'base64').toString() : ''
  return decoded.slice(decoded.indexOf(':') + 1)
}

function hostPort(text: string): { host: string; port: number } | undefined {
  try {
    const url = new URL(text)
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) }
  } catch {
    return undefined
  }
}

const sameHost = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/** A plain-HTTP request as the origin reads it: path-only request line, without the bridge's credentials. */
function originForm(lines: string[], target: string): string {
  const url = new URL(target)
  const [method, , version] = lines[0]!.split(' ')
  const kept = lines.slice(1).filter((l) => !l.toLowerCase().startsWith('proxy-'))
  return [`${method} ${url.pathname}${url.search} ${version}`, ...kept].join('\r\n')
}

/** A socket to the target through the SOCKS5 proxy, at the target's checked address (never a name). */
function socksConnect(a: Admission): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: a.socks.address, port: a.socks.port })
    const fail = (why: string) => {
      socket.destroy()
      reject(new Error(`socks5: ${why}`))
    }
    socket.setTimeout(HANDSHAKE_TIMEOUT_MS, () => fail('timed out'))
    socket.once('error', (error) => fail(error.message))
    const auth = a.socks.user || a.socks.password
    let stage: 'method' | 'auth' | 'connect' = 'method'
    let buffer = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      if (stage === 'method') {
        if (buffer.length < 2) return
        const method = buffer[1]
        buffer = buffer.subarray(2)
        if (method === 0x02 && auth) {
          stage = 'auth'
          const user = Buffer.from(a.socks.user)
          const pass = Buffer.from(a.socks.password)
          socket.write(Buffer.concat([Buffer.from([0x01, user.length]), user, Buffer.from([pass.length]), pass]))
        } else if (method === 0x00) {
          stage = 'connect'
          socket.write(connectRequest(a.target))
        } else return fail('the proxy accepts none of our methods')
      } else if (stage === 'auth') {
        if (buffer.length < 2) return
        if (buffer[1] !== 0x00) return fail('the proxy refused the user and password')
        buffer = buffer.subarray(2)
        stage = 'connect'
        socket.write(connectRequest(a.target))
      } else {
        const size = replySize(buffer)
        if (size === undefined || buffer.length < size) return
        if (buffer[1] !== 0x00) return fail(`the proxy could not connect (reply ${buffer[1]})`)
        socket.off('data', onData)
        socket.removeAllListeners('error')
        socket.setTimeout(0)
        if (buffer.length > size) socket.unshift(buffer.subarray(size))
        resolve(socket)
      }
    }
    socket.on('data', onData)
    socket.once('connect', () => socket.write(Buffer.from(auth ? [0x05, 0x02, 0x00, 0x02] : [0x05, 0x01, 0x00])))
  })
}

/** CONNECT to an IP literal (ATYP 1 or 4): the proxy resolves nothing. */
function connectRequest(target: Admission['target']): Buffer {
  const port = Buffer.from([target.port >> 8, target.port & 0xff])
  if (isIP(target.address) === 4) return Buffer.concat([Buffer.from([0x05, 0x01, 0x00, 0x01]), Buffer.from(target.address.split('.').map(Number)), port])
  if (isIP(target.address) === 6) return Buffer.concat([Buffer.from([0x05, 0x01, 0x00, 0x04]), ipv6Bytes(target.address), port])
  throw new Error('socks5: the target was not resolved to an address')
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail = ''] = address.split('::')
  const h = head ? head.split(':') : []
  const t = tail ? tail.split(':') : []
  const groups = address.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h
  return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]))
}

/** The length of a CONNECT reply once its address type is known. */
function replySize(buffer: Buffer): number | undefined {
  if (buffer.length < 5) return undefined
  const type = buffer[3]
  if (type === 0x01) return 10
  if (type === 0x04) return 22
  if (type === 0x03) return 7 + buffer[4]!
  return 10
}

let bridge: SocksBridge | undefined
export function socksBridge(): SocksBridge {
  bridge ??= new SocksBridge()
  return bridge
}

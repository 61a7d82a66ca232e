/**
 * One outbound guard: every HTTP call the server makes to an address it was given goes through src/outbound
 * (`deps.outbound.fetch`). This fails when a file in src/ dials any other way: global `fetch(`, Bun's sockets, Node's
 * HTTP, TLS, net or UDP clients, WebSocket. The few allowed are listed with why. (The database and Redis clients
 * connect to the operator's DATABASE_URL and REDIS_URL, not to addresses a user or admin supplies.)
 */
import { expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const SRC = join(import.meta.dir, '../../src')

const ALLOWED: Record<string, string> = {
  'outbound/fetch.ts': 'the guard itself',
  'outbound/websocket.ts': "the guard's WebSocket side: dials only the address outbound/fetch.ts checked, the name pinned in Host and SNI",
  'outbound/smtp.ts': "the guard's SMTP side: nodemailer connects to the address checked there",
  'cli/control.ts': "the CLI talks to its own server over the data dir's unix socket",
  'outbound/socks-bridge.ts': "the guard's SOCKS5 side: dials only the proxy's checked address, asking it for the target's checked address (outbound/proxy.ts)",
  'cli/health.ts': 'the health check probes its own server on the configured port',
  'net/ip.ts': "node:net's isIP and BlockList parse addresses; they dial nothing",
  'net/trusted-proxies.ts': "node:net's BlockList matches proxy CIDRs; it dials nothing",
}

const DIALS: [string, RegExp][] = [
  ['a global fetch call', /(?<![.\w$])fetch\s*\(\s*[^)\s]/],
  ['globalThis.fetch', /globalThis\.fetch\b/],
  ['Bun sockets', /Bun\.(connect|udpSocket|listen)\s*\(/],
  ['a Node network module', /['"]node:(http|https|http2|net|tls|dgram)['"]/],
  ['a WebSocket client', /new\s+WebSocket\s*\(/],
  ['an HTTP client library', /from\s+['"](undici|axios|node-fetch|got|ky)['"]/],
  ['a mail client', /from\s+['"]nodemailer['"]|require\(['"]nodemailer['"]\)/],
]

const METHOD = /^\s*(async\s+)?fetch\([\w\s?:,<>[\]|]*\)\s*(:|\{)/

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'ui' && dir === SRC ? [] : sourceFiles(path) // the console runs in the browser
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : []
  })
}

test('nothing in src/ dials out except through src/outbound', () => {
  const found: string[] = []
  for (const file of sourceFiles(SRC)) {
    const name = relative(SRC, file)
    if (ALLOWED[name]) continue
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*)/.test(line)) return // comments
        if (METHOD.test(line)) return // a method named fetch (an interface's, a server's handler), not a call
        for (const [what, pattern] of DIALS) if (pattern.test(line)) found.push(`${name}:${i + 1}: ${what}: ${line.trim()}`)
      })
  }
  expect(found).toEqual([])
})

test('the allowed list is still true (each file exists)', () => {
  const files = new Set(sourceFiles(SRC).map((f) => relative(SRC, f)))
  for (const name of Object.keys(ALLOWED)) expect(files.has(name)).toBe(true)
})

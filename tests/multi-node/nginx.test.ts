/**
 * The load balancer we ship (deploy/nginx-nodes.conf, the one deploy/compose.nodes.yaml mounts) in front of two
 * gateway processes on one PostgreSQL and Redis, with Debian's nginx: a console session from one node works
 * through either, streamed answers pass through as they are made, and with a node killed the
 * balancer sends everything to the other without an error; a client cannot choose its own address with
 * `X-Forwarded-For` (issue #28), neither through the file as shipped nor through the common appending config.
 * Only the upstream addresses and the listen port are rewritten for loopback; everything else is the file as shipped.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { hasPostgres, startPostgres, type PgServer } from '../helpers/pg-server'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import { apiWith, chat, login, ROOT_PASSWORD, startCluster, within, type Node } from './cluster'

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path))
const describeLb = NGINX && hasPostgres() && hasRedis() ? describe : describe.skip
if (!NGINX) console.warn('tests/multi-node/nginx: no nginx (apt-get install nginx-light): skipped')

const SHIPPED = join(import.meta.dir, '../../deploy/nginx-nodes.conf')

function freePort(): number {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = server.port!
  server.stop(true)
  return port
}

/** The shipped site, pointed at the nodes on loopback, inside a minimal main config that keeps everything in `dir`. */
function nginxConfig(dir: string, port: number, nodes: Node[], edit: (site: string) => string = (site) => site): string {
  const site = edit(readFileSync(SHIPPED, 'utf8'))
    .replace('server node1:3000', `server ${new URL(nodes[0]!.url).host}`)
    .replace('server node2:3000', `server ${new URL(nodes[1]!.url).host}`)
    .replace('listen 80;', `listen 127.0.0.1:${port};`)
  if (site.includes('node1:') || site.includes('node2:') || !site.includes(`listen 127.0.0.1:${port}`)) throw new Error('deploy/nginx-nodes.conf changed shape: update this test')
  writeFileSync(join(dir, 'site.conf'), site)
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub), { recursive: true })
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`
}

/** Debian's nginx on a free loopback port with `conf` (prefix `dir`), once it answers. */
async function startNginx(dir: string, conf: (port: number) => string): Promise<{ proc: ReturnType<typeof Bun.spawn>; url: string }> {
  mkdirSync(dir, { recursive: true })
  const port = freePort()
  writeFileSync(join(dir, 'nginx.conf'), conf(port))
  const proc = Bun.spawn([NGINX!, '-p', dir, '-c', join(dir, 'nginx.conf')], { stdout: 'ignore', stderr: 'pipe' })
  const url = `http://127.0.0.1:${port}`
  await within(10_000, async () => fetch(`${url}/healthz`).then((r) => r.ok, () => false), 'nginx answers')
  return { proc, url }
}

// the config most guides give, which keeps what the client wrote and appends the real address after it
const APPENDING = '$proxy_add_x_forwarded_for'

describeLb('nginx as shipped, in front of two nodes', () => {
  let pg: PgServer
  let redis: RedisServer
  let upstream: FakeUpstream
  let nodes: Node[]
  let lb: ReturnType<typeof Bun.spawn>
  let appendingLb: ReturnType<typeof Bun.spawn>
  let lbUrl: string
  let appendingUrl: string
  let dir: string
  let key: string
  let root: Awaited<ReturnType<typeof login>>

  beforeAll(async () => {
    ;[pg, redis, upstream] = await Promise.all([startPostgres(), startRedis(), startFakeUpstream({ keys: ['sk-up'] })])
    upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    nodes = (await startCluster(pg, redis.url, 2, { TRUST_PROXY: 'true' })).nodes
    dir = mkdtempSync(join(tmpdir(), 'tollgate-nginx-'))
    const shipped = join(dir, 'shipped')
    const appending = join(dir, 'appending')
    const withAppending = (site: string) => site.replace(/X-Forwarded-For \$remote_addr;/, `X-Forwarded-For ${APPENDING};`)
    ;[{ proc: lb, url: lbUrl }, { proc: appendingLb, url: appendingUrl }] = await Promise.all([
      startNginx(shipped, (port) => nginxConfig(shipped, port, nodes)),
      startNginx(appending, (port) => nginxConfig(appending, port, nodes, withAppending)),
    ])
    expect(readFileSync(join(appending, 'site.conf'), 'utf8')).toContain(APPENDING)
    root = await login(lbUrl, 'root', ROOT_PASSWORD)
    await root.must('POST', '/api/channel/', { type: 1, name: 'up', key: 'sk-up', base_url: upstream.url, models: 'gpt-4o', group: 'default' })
    const token = await root.must('POST', '/api/token/', { name: 'lb', unlimited_quota: true })
    key = String(token.key).startsWith('sk-') ? String(token.key) : `sk-${token.key}`
  }, 120_000)

  afterAll(async () => {
    for (const proc of [lb, appendingLb]) proc?.kill('SIGTERM')
    await Promise.all([lb?.exited, appendingLb?.exited])
    await Promise.all((nodes ?? []).map((n) => n.stop('SIGKILL')))
    await Promise.all([pg?.stop(), redis?.stop(), upstream?.stop()])
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('a console session works through either node: every call of a round-robin run answers 200', async () => {
    const root = await login(lbUrl, 'root', ROOT_PASSWORD)
    const statuses = await Promise.all(Array.from({ length: 12 }, () => root.call('GET', '/api/user/self').then((r) => r.status)))
    expect(statuses).toEqual(Array(12).fill(200))
    // and API keys made through one node work through the balancer, round robin over both
    const before = upstream.requests.length
    for (let i = 0; i < 6; i++) expect((await chat(lbUrl, key)).status).toBe(200)
    expect(upstream.requests.length - before).toBe(6)
  })

  test('a streamed answer passes through as it is made, not buffered to the end', async () => {
    upstream.setBehavior({ text: ['one ', 'two ', 'three ', 'four'], delayMs: 300, usage: { input: 10, output: 4 } })
    const started = performance.now()
    const res = await fetch(`${lbUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'count' }] }),
    })
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    let firstContentAt = 0
    let upstreamFramesThen = 0
    const counted = () => upstream.requests.findLast((r) => r.json?.messages?.[0]?.content === 'count')!
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      text += decoder.decode(part.value, { stream: true })
      if (!firstContentAt && text.includes('one ')) {
        firstContentAt = performance.now() - started
        upstreamFramesThen = counted().framesSent!
      }
    }
    const framesInAll = counted().framesSent!
    const total = performance.now() - started
    console.log(`first content after ${firstContentAt.toFixed(0)} ms, the end after ${total.toFixed(0)} ms`)
    upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    expect(text).toContain('four')
    expect(text).toContain('data: [DONE]')
    // four deltas 300 ms apart: the first reached the client before the upstream had made the last (an order, so
    // it holds however slow the machine; a buffering proxy passes nothing on until the upstream is done)
    expect(total).toBeGreaterThan(900)
    expect(upstreamFramesThen).toBeGreaterThan(0)
    expect(upstreamFramesThen).toBeLessThan(framesInAll)
  })

  test('a key allowed only from 10.1.2.3 is refused to a client that writes x-forwarded-for: 10.1.2.3', async () => {
    const far = await root.must('POST', '/api/token/', { name: 'far', unlimited_quota: true, allow_ips: '10.1.2.3' })
    const farKey = String(far.key).startsWith('sk-') ? String(far.key) : `sk-${far.key}`
    for (const url of [lbUrl, appendingUrl]) {
      for (const forwardedFor of ['10.1.2.3', '10.1.2.3, 10.1.2.3']) {
        const res = await fetch(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${farKey}`, 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
          body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
        })
        expect({ url, forwardedFor, status: res.status }).toEqual({ url, forwardedFor, status: 403 })
        const body = (await res.json()) as { error: { message: string; type: string; code: string } }
        expect(body.error.code).toBe('ip_not_allowed')
        expect(body.error.message).toContain('client IP 127.0.0.1 is not allowed')
      }
    }
  })

  test('log rows carry the real address, not the one the client wrote', async () => {
    const res = await fetch(`${lbUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-forwarded-for': '10.1.2.3' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(res.status).toBe(200)
    const requestId = res.headers.get('x-request-id')
    let ips: string[] = []
    await within(10_000, async () => (ips = (await root.must('GET', `/api/log/?request_id=${requestId}`)).items.map((r: { ip: string }) => r.ip)).length > 0, 'the log row')
    expect(ips).toEqual(['127.0.0.1'])
  })

  // last but one: it uses up 127.0.0.1's failed logins for the window
  test('the login limiter counts the real address: a new x-forwarded-for per attempt buys no attempts', async () => {
    // a low limit, seen by both nodes, keeps the failed (argon2-checked) logins few
    await root.must('PUT', '/api/option/', { key: 'LoginFailuresPerAddress', value: 3 })
    for (const node of nodes) {
      const api = apiWith(node.url, root.cookie)
      await within(10_000, async () => (await api.must('GET', '/api/option/')).find((o: { key: string }) => o.key === 'LoginFailuresPerAddress')?.value === 3, `the limit on ${node.name}`)
    }
    let attempts = 0
    let status = 0
    for (; attempts < 40 && status !== 429; attempts++) {
      const url = attempts % 2 ? appendingUrl : lbUrl
      const res = await fetch(`${url}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.7.${attempts}.1` },
        body: JSON.stringify({ username: `nobody${attempts}`, password: 'wrong-password' }),
      })
      status = res.status
      if (status !== 429) expect(status).toBe(401)
    }
    expect(status).toBe(429)
    console.log(`refused after ${attempts - 1} failed logins from 127.0.0.1, each with its own x-forwarded-for`)
  }, 60_000)

  test('with one node killed, the balancer sends every request to the other without an error', async () => {
    nodes[0]!.proc.kill('SIGKILL')
    await nodes[0]!.proc.exited
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) statuses.push((await chat(lbUrl, key)).status)
    expect(statuses).toEqual(Array(10).fill(200))
  })
})

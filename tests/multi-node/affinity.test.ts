/**
 * Session affinity over two gateway processes on one PostgreSQL and Redis: a 10-turn Claude Code session and a Codex
 * session, turns alternating between the nodes, over three channels with three keys each. Every turn reaches the
 * same channel and key, whichever node it lands on (the pin is in Redis); with the pinned channel's upstream killed
 * mid-session, the rest sticks to one new channel and key on both nodes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { agentUpstreams, capture, claudeTurn, clientHeaders, codexTurn, servedBy, type AgentUpstream, type Capture } from '../helpers/agent-sessions'
import { hasPostgres, startPostgres, type PgServer } from '../helpers/pg-server'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import { login, ROOT_PASSWORD, startCluster, within, type Api, type Node } from './cluster'

const describeCluster = hasPostgres() && hasRedis() ? describe : describe.skip

describeCluster('session affinity across two nodes', () => {
  let pg: PgServer
  let redis: RedisServer
  let nodes: Node[]
  let root: Api
  let key: string
  const upstreamsOf: AgentUpstream[][] = []

  beforeAll(async () => {
    ;[pg, redis] = await Promise.all([startPostgres(), startRedis()])
    nodes = (await startCluster(pg, redis.url, 2)).nodes
    root = await login(nodes[0]!.url, 'root', ROOT_PASSWORD)
    const token = await root.must('POST', '/api/token/', { name: 'agent', unlimited_quota: true })
    key = String(token.key).startsWith('sk-') ? String(token.key) : `sk-${token.key}`
  }, 120_000)

  afterAll(async () => {
    await Promise.all((nodes ?? []).map((n) => n.stop('SIGKILL')))
    for (const list of upstreamsOf) for (const u of list) await u.upstream.stop().catch(() => {})
    await Promise.all([pg?.stop(), redis?.stop()])
  })

  /** Three channels on three upstreams, three keys each, made on node 1; waits until node 2 routes to them. */
  async function threeChannels(type: number, model: string): Promise<AgentUpstream[]> {
    const upstreams = await agentUpstreams(3, 3)
    upstreamsOf.push(upstreams)
    for (const [i, u] of upstreams.entries()) {
      await root.must('POST', '/api/channel/', { type, name: `agent-${model}-${i}`, key: u.keys.join('\n'), base_url: u.upstream.url, models: model, group: 'default', auto_ban: 0 })
    }
    const listed = async () => ((await (await fetch(`${nodes[1]!.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).data.some((m: { id: string }) => m.id === model)
    await within(5_000, listed, `node 2 routes ${model}`)
    return upstreams
  }

  async function play(c: Capture, turnOf: (c: Capture, n: number) => Record<string, unknown>, upstreams: AgentUpstream[], from: number, to: number) {
    const served: { upstream: number; key: string }[] = []
    for (let n = from; n < to; n++) {
      const since = upstreams.map((u) => u.upstream.requests.length)
      const node = nodes[n % 2]!
      const res = await fetch(node.url + c.url, { method: 'POST', headers: clientHeaders(c, key), body: JSON.stringify(turnOf(c, n)) })
      const text = await res.text()
      expect(res.status, `turn ${n} on ${node.name}: ${text.slice(0, 300)}`).toBe(200)
      served.push(servedBy(upstreams, since).at(-1)!)
    }
    return served
  }
  const homes = (served: { upstream: number; key: string }[]) => new Set(served.map((s) => `${s.upstream}/${s.key}`))

  for (const client of [
    { name: 'Claude Code', capture: 'claude-code-tool-result-followup', type: 14, turn: claudeTurn },
    { name: 'Codex', capture: 'codex-responses-tool-followup', type: 1, turn: codexTurn },
  ]) {
    test(`${client.name}: 10 turns over both nodes reach one channel and key; the pinned one killed, the rest sticks to one new`, async () => {
      const c = capture(client.capture)
      const upstreams = await threeChannels(client.type, c.body.model)
      const first = await play(c, client.turn, upstreams, 0, 10)
      expect(homes(first).size).toBe(1)

      const killed = first[0]!.upstream
      await upstreams[killed]!.upstream.stop()
      const after = await play(c, client.turn, upstreams, 10, 16)
      expect(homes(after).size).toBe(1)
      expect(after[0]!.upstream).not.toBe(killed)

      const stats = await root.must('GET', '/api/option/channel_affinity_cache')
      expect(stats.by_rule_name[client.name === 'Codex' ? 'codex' : 'claude-code']).toBe(1)
    }, 60_000)
  }
})

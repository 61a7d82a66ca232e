import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { agentUpstreams, capture, claudeTurn, clientHeaders, codexTurn, servedBy, type AgentUpstream, type Capture } from '../../helpers/agent-sessions'
import { startRelayEnv, type RelayEnv } from '../../helpers/relay-env'

/**
 * A Claude Code session and a Codex session, 10 growing turns each, over three channels with three keys each: every
 * turn reaches the same channel and key (the upstream's prompt cache is on one account); with the pinned channel's
 * upstream killed mid-session, the rest of the session sticks to one new channel and key.
 */
let env: RelayEnv
const upstreamsOf: AgentUpstream[][] = []

beforeAll(async () => {
  env = await startRelayEnv()
})
afterAll(async () => {
  await env.stop()
  for (const list of upstreamsOf) for (const u of list) await u.upstream.stop().catch(() => {})
})

async function threeChannels(type: number, model: string): Promise<AgentUpstream[]> {
  const upstreams = await agentUpstreams(3, 3)
  upstreamsOf.push(upstreams)
  for (const [i, u] of upstreams.entries()) {
    await env.addChannel({ type, name: `agent-${type}-${i}`, baseUrl: u.upstream.url, keyText: u.keys.join('\n'), models: model, autoBan: 0 })
  }
  return upstreams
}

/** Sends turns `from`..`to` (exclusive) and returns where each went. */
async function play(c: Capture, turnOf: (c: Capture, n: number) => Record<string, unknown>, upstreams: AgentUpstream[], from: number, to: number) {
  const served: { upstream: number; key: string }[] = []
  for (let n = from; n < to; n++) {
    const since = upstreams.map((u) => u.upstream.requests.length)
    const res = await env.app.fetch(c.url, { method: 'POST', headers: clientHeaders(c, env.key), body: JSON.stringify(turnOf(c, n)) })
    expect(res.status, await res.clone().text()).toBe(200)
    await res.text()
    const reached = servedBy(upstreams, since).filter((s) => s.key !== '')
    served.push(reached.at(-1)!) // the attempt that answered is the last one to arrive
  }
  return served
}

const sameEverywhere = (served: { upstream: number; key: string }[]) => new Set(served.map((s) => `${s.upstream}/${s.key}`))

for (const client of [
  { name: 'Claude Code', capture: 'claude-code-tool-result-followup', type: 14, turn: claudeTurn },
  { name: 'Codex', capture: 'codex-responses-tool-followup', type: 1, turn: codexTurn },
]) {
  describe(`${client.name}: a 10-turn session`, () => {
    test('every turn reaches the same channel and key', async () => {
      const c = capture(client.capture)
      const upstreams = await threeChannels(client.type, c.body.model)
      const served = await play(c, client.turn, upstreams, 0, 10)
      expect(served).toHaveLength(10)
      expect(sameEverywhere(served).size).toBe(1)
    })

    test('with the pinned channel killed mid-session, the rest sticks to one new channel and key', async () => {
      const c = structuredClone(capture(client.capture))
      // a session of its own (the previous test pinned the captured one)
      renameSession(c, `${client.name}-killed-session`)
      c.body.model = `${c.body.model}-kill` // channels of its own
      const upstreams = await threeChannels(client.type, c.body.model)
      const before = await play(c, client.turn, upstreams, 0, 4)
      expect(sameEverywhere(before).size).toBe(1)
      const killed = before[0]!.upstream
      await upstreams[killed]!.upstream.stop()
      const after = await play(c, client.turn, upstreams, 4, 10)
      expect(sameEverywhere(after).size).toBe(1)
      expect(after[0]!.upstream).not.toBe(killed)
    })
  })
}

/** Every place the capture names its session, set to `id`. */
function renameSession(c: Capture, id: string): void {
  for (const name of Object.keys(c.headers)) if (/^(x-claude-code-session-id|session[-_]id)$/i.test(name)) c.headers[name] = id
  if (c.body.prompt_cache_key) c.body.prompt_cache_key = id
  if (c.body.metadata?.user_id) c.body.metadata.user_id = JSON.stringify({ ...JSON.parse(c.body.metadata.user_id), session_id: id })
}

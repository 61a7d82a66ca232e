import type { Env } from '../../src/config'
import type { UserRow } from '../../src/db/repos'
import type { RelayOutcome } from '../../src/relay/types'
import type { NewChannelInput } from '../../src/relay/routing'
import { seededRandom } from '../../src/relay/routing'
import { createToken } from '../../src/services/tokens/create-token'
import type { TokenFieldsInput } from '../../src/services/tokens/token-fields'
import { addUser } from './accounts'
import { startFakeUpstream, type FakeUpstream } from './fake-upstreams'
import { startTestApp, type TestApp } from './test-app'

export const UPSTREAM_KEY = 'sk-upstream-secret-key-0123456789'

export interface RelayEnv {
  app: TestApp
  upstream: FakeUpstream
  user: UserRow
  /** a full `sk-…` key of an unlimited token of `user` */
  key: string
  outcomes: RelayOutcome[]
  addChannel(input: Partial<NewChannelInput> & { type: number }): Promise<number>
  newKey(fields?: Partial<TokenFieldsInput>, user?: UserRow): Promise<string>
  stop(): Promise<void>
}

/** A gateway on loopback (started with `env`) with one user, one token and a fake upstream that speaks every protocol. */
export async function startRelayEnv(env: Env = {}): Promise<RelayEnv> {
  const outcomes: RelayOutcome[] = []
  const app = await startTestApp(env, (outcome) => outcomes.push(outcome))
  app.deps.routing.setRandom(seededRandom(42))
  const upstream = await startFakeUpstream({ keys: [UPSTREAM_KEY] })
  const user = await addUser(app, { username: 'alice', quota: 10_000_000 })
  const newKey = async (fields: Partial<TokenFieldsInput> = {}, owner = user) =>
    (await createToken(app.deps, { user: owner, fields: { name: 'test', unlimited_quota: true, ...fields } as TokenFieldsInput })).key
  return {
    app,
    upstream,
    user,
    key: await newKey(),
    outcomes,
    newKey,
    async addChannel(input) {
      const [channel] = await app.deps.routing.channels.create([
        { name: `ch-${input.type}`, baseUrl: upstream.url, keyText: UPSTREAM_KEY, models: 'gpt-4o,claude-sonnet-4-5,gemini-2.5-flash', group: 'default', ...input },
      ])
      return channel!.id
    },
    async stop() {
      await app.stop()
      await upstream.stop()
    },
  }
}

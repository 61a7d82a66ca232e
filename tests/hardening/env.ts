import type { Env } from '../../src/config'
import { seededRandom } from '../../src/relay/routing'
import { createToken } from '../../src/services/tokens/create-token'
import type { TokenFieldsInput } from '../../src/services/tokens/token-fields'
import { addUser } from '../helpers/accounts'
import { startFakeUpstream } from '../helpers/fake-upstreams'
import { UPSTREAM_KEY, type RelayEnv } from '../helpers/relay-env'
import { startTestApp } from '../helpers/test-app'

/** tests/helpers/relay-env's gateway (one user, one unlimited key, a fake upstream), started with `env`. */
export async function startHardeningEnv(env: Env = {}): Promise<RelayEnv> {
  const outcomes: RelayEnv['outcomes'] = []
  const app = await startTestApp(env, (outcome) => outcomes.push(outcome))
  app.deps.routing.setRandom(seededRandom(42))
  const upstream = await startFakeUpstream({ keys: [UPSTREAM_KEY] })
  const user = addUser(app, { username: 'alice', quota: 10_000_000 })
  const newKey = (fields: Partial<TokenFieldsInput> = {}, owner = user) =>
    createToken(app.deps, { user: owner, fields: { name: 'test', unlimited_quota: true, ...fields } as TokenFieldsInput }).key
  return {
    app,
    upstream,
    user,
    key: newKey(),
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

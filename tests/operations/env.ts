import OpenAI from 'openai'
import { startMeteredEnv } from '../metering/env'
import { startOperationsUpstream, type OperationsUpstream } from '../helpers/fake-upstreams/operations'
import type { RelayEnv } from '../helpers/relay-env'

export const OP_KEY = 'sk-operations-upstream-key-42'

export interface OperationsEnv {
  env: RelayEnv
  up: OperationsUpstream
  /** the official SDK pointed at the gateway with `env.key` */
  openai: OpenAI
  /** adds a channel of `type` pointed at the fake, serving `models` */
  channel(type: number, models: string, extra?: Record<string, unknown>): Promise<number>
  stop(): Promise<void>
}

/** A metered gateway (prices enforced) with the operations fake upstream. */
export async function startOperationsEnv(): Promise<OperationsEnv> {
  const env = await startMeteredEnv()
  const up = await startOperationsUpstream({ key: OP_KEY })
  return {
    env,
    up,
    openai: new OpenAI({ apiKey: env.key, baseURL: `${env.app.url}/v1`, maxRetries: 0 }),
    async channel(type, models, extra = {}) {
      const [channel] = await env.app.deps.routing.channels.create([{ name: `op-${type}`, type, baseUrl: up.url, keyText: OP_KEY, models, group: 'default', ...extra }])
      return channel!.id
    },
    async stop() {
      await env.stop()
      await up.stop()
    },
  }
}

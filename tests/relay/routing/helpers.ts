import { mkdtempSync, rmSync } from 'node:fs'
import { createOutbound } from '../../../src/outbound/fetch'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLocalCoordination } from '../../../src/coord/local'
import type { ChannelRepo } from '../../../src/db/repos'
import { closeDatabase, openDatabase } from '../../../src/db/sqlite/client'
import { migrate } from '../../../src/db/sqlite/migrate'
import { createChannelRepo } from '../../../src/db/sqlite/repos/channels'
import { createRouting, type NewChannelInput, type Routing } from '../../../src/relay/routing'
import type { Fetch } from '../../../src/relay/routing/channel-test'

export interface RoutingFixture {
  routing: Routing
  repo: ChannelRepo
  options: Record<string, number>
  add(input: Partial<NewChannelInput>): Promise<number>
  close(): void
}

/** Routing over a real SQLite file in a temp dir, without HTTP. */
export function routingFixture(fetchImpl?: Fetch): RoutingFixture {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-routing-'))
  const db = openDatabase(join(dir, 'test.db'))
  migrate(db)
  const repo = createChannelRepo(db)
  const options: Record<string, number> = { ChannelFailureThreshold: 3, ChannelProbeIntervalSeconds: 300 }
  const coord = createLocalCoordination()
  const routing = createRouting({
    repo,
    cryptoSecret: 'test-secret-test-secret-test-secret',
    options: { get: <T,>(key: string) => options[key] as T },
    failureCounts: coord,
    fetch: fetchImpl ?? createOutbound({ allowPrivate: () => true }).fetch,
  })
  return {
    routing,
    repo,
    options,
    async add(input) {
      const [channel] = await routing.channels.create([{ type: 1, name: 'c', models: 'm', group: 'default', keyText: 'k', ...input }])
      return channel!.id
    },
    close() {
      routing.probe.stop()
      void coord.close()
      closeDatabase(db)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

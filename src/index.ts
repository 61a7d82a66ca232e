import { createApp } from './app'
import { ConfigError, HELP, parseCli } from './config'
import { closeDatabase, openDatabase } from './db/client'
import { migrate, NewerDatabaseError } from './db/migrate'
import { createDeps } from './deps'
import { startIdleCollector } from './launch/idle-collector'
import { ensureMaxHttpRequests } from './launch/max-http-requests'
import { bootstrapRoot } from './modules/setup/bootstrap'
import { requestsArrived } from './plugins/request-context'
import { VERSION } from './version'

function main(): void {
  let action
  try {
    action = parseCli(Bun.argv.slice(2), process.env)
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message)
    throw error
  }
  if (action.kind === 'help') return void console.log(HELP)
  if (action.kind === 'version') return void console.log(VERSION)
  if (action.kind === 'import') {
    // loaded only for this command: a serving gateway never pays for the importer or the SQL client
    return void import('./import/cli').then(({ runImportCli }) => runImportCli(action.argv, process.env)).then((code) => process.exit(code))
  }

  // before any fetch: lifts Bun's 256 concurrent upstream requests (re-executes this process once if needed)
  ensureMaxHttpRequests()
  const { config } = action
  const db = openDatabase(config.sqlitePath)
  try {
    migrate(db)
  } catch (error) {
    if (error instanceof NewerDatabaseError) fail(error.message)
    throw error
  }
  const deps = createDeps(config, db)
  bootstrapRoot(deps)
  const app = createApp(deps).listen({ port: config.port, hostname: config.hostname })
  console.log(`tollgate ${VERSION} listening on http://${app.server?.hostname}:${app.server?.port} (db ${config.sqlitePath})`)
  const idle = startIdleCollector({ arrived: requestsArrived, inFlight: () => app.server?.pendingRequests ?? 0 })

  const stop = async (signal: string) => {
    console.log(`${signal}: stopping`)
    idle.stop()
    await app.stop()
    deps.metering.stop() // every queued log row reaches the database before it closes
    closeDatabase(db)
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}

function fail(message: string): never {
  console.error(`tollgate: ${message}`)
  process.exit(1)
}

main()

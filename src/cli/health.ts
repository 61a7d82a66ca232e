import type { Env } from '../config'
import { EXIT, parseCommandArgs, UsageError } from './args'

export const HEALTH_HELP = `Usage: tollgate health [--ready] [--url URL] [--timeout SECONDS]

Ask a running gateway whether it is alive (GET /healthz) or, with --ready, ready (GET /readyz), and exit 0 or 1:
a health check that needs no curl (the Docker image's HEALTHCHECK runs it). The address is
http://127.0.0.1:$PORT unless --url says otherwise (HOST is not used: 0.0.0.0 binds every address).

  --ready          ask /readyz (503 while migrations are missing or once draining)
  --url URL        the gateway's base URL (default http://127.0.0.1:$PORT, PORT default 3000)
  --timeout S      give up after S seconds (default 5)

Exit codes: 0 healthy (or ready), 1 not, or no answer, 2 usage.
`

export async function runHealth(argv: readonly string[], env: Env): Promise<number> {
  const parsed = parseCommandArgs(
    'health',
    argv,
    { help: { type: 'boolean', short: 'h' }, ready: { type: 'boolean' }, url: { type: 'string' }, timeout: { type: 'string' } },
    { min: 0, max: 0 },
  )
  if (parsed.values.help) return void console.log(HEALTH_HELP), EXIT.ok
  const base = typeof parsed.values.url === 'string' ? parsed.values.url.replace(/\/+$/, '') : `http://127.0.0.1:${env.PORT || '3000'}`
  const seconds = Number(parsed.values.timeout ?? '5')
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`health: --timeout must be a positive number of seconds`)
  const path = parsed.values.ready ? '/readyz' : '/healthz'
  try {
    const response = await fetch(base + path, { signal: AbortSignal.timeout(seconds * 1000) })
    const body = (await response.text()).trim()
    console.log(`${path}: ${response.status} ${body}`)
    return response.status === 200 ? EXIT.ok : EXIT.failed
  } catch (error) {
    console.log(`${path}: no answer from ${base} (${(error as Error).message})`)
    return EXIT.failed
  }
}

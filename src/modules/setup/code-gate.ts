import { networkInterfaces } from 'node:os'
import { ForbiddenError, RateLimitError } from '../../errors'
import { createAttemptLimiter, type AttemptLimiter } from './attempts'
import { setupCodeMatches, setupCodeOf } from './setup-code'

/** Where the operator finds the code: said in every refusal and on the setup page. */
const WHERE_THE_CODE_IS = 'printed in the server log at start (journalctl -u tollgate | grep "setup code", or docker logs <container>)'

export interface SetupAttempt {
  /** from this machine, not through a proxy (setup-code.ts isLocalRequest) */
  local: boolean
  /** the client's address, for the attempt limit */
  address: string
  given: string | undefined
}

export interface SetupCodeGate {
  readonly code: string
  /** throws 429 past the attempt limit, 403 for a missing or wrong code; local requests pass */
  check(attempt: SetupAttempt): void
}

/** 5 attempts a minute per address: a person mistyping has room, a guesser of 60 bits has none. */
export function createSetupCodeGate(sessionSecret: string, limiter: AttemptLimiter = createAttemptLimiter({ perWindow: 5, windowMs: 60_000, maxAddresses: 10_000 })): SetupCodeGate {
  const code = setupCodeOf(sessionSecret)
  return {
    code,
    check({ local, address, given }) {
      if (local) return
      const wait = limiter.take(address)
      if (wait !== undefined) throw new RateLimitError(`too many setup attempts from this address: try again in ${Math.ceil(wait)} s`, wait)
      if (!given) throw new ForbiddenError(`setup from the network needs the setup code, ${WHERE_THE_CODE_IS}`, 'setup_code_required')
      if (!setupCodeMatches(given, code)) throw new ForbiddenError(`wrong setup code: it is ${WHERE_THE_CODE_IS}`, 'setup_code_wrong')
    },
  }
}

/** The start log's line while setup is pending: the URL with the code (a wildcard bind shows this host's first address). */
export function setupAnnouncement(code: string, hostname: string, port: number): { url: string; message: string } {
  const host = hostname === '0.0.0.0' || hostname === '::' ? firstAddress() : hostname
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/setup?code=${code}`
  return { url, message: `setup pending: open ${url} to create the root user (setup code ${code}; needed from any address but this machine's own)` }
}

function firstAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) if (!entry.internal && entry.family === 'IPv4') return entry.address
  }
  return 'localhost'
}

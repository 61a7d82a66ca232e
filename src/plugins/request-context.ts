import { Elysia } from 'elysia'
import type { Config } from '../config'
import { PayloadTooLargeError } from '../errors'

/** Per-request facts every module needs: a request id (echoed in a header), the client IP, the body limit. */
export function requestContext(config: Pick<Config, 'maxBodyBytes' | 'trustProxy'>) {
  return new Elysia({ name: 'request-context' })
    .onRequest(({ request }) => {
      const length = Number(request.headers.get('content-length') ?? 0)
      if (length > config.maxBodyBytes) throw new PayloadTooLargeError(config.maxBodyBytes)
    })
    .derive({ as: 'global' }, ({ request, server, set }) => {
      const requestId = newRequestId()
      set.headers['x-request-id'] = requestId
      const forwarded = config.trustProxy ? request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() : undefined
      const clientIp = forwarded || server?.requestIP(request)?.address || ''
      return { requestId, clientIp: normalizeIp(clientIp) }
    })
}

export function newRequestId(): string {
  return `req_${Bun.randomUUIDv7('hex')}`
}

function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip
}

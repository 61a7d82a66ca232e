/**
 * Errors carry status, a stable code and a human message. Their wire shape is decided at the edge:
 * the envelope for /api, each protocol's own error body for relay routes.
 */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly headers?: Record<string, string>,
    /** facts a client acts on (e.g. `{ code, retry_after }`), sent as the /api envelope's `data` */
    readonly data?: Record<string, unknown>,
  ) {
    super(message)
  }
}

export class BadRequestError extends GatewayError {
  constructor(message: string, param?: string) {
    super(400, 'invalid_request', message, param)
  }
}

export class UnauthorizedError extends GatewayError {
  constructor(message = 'not logged in', code = 'unauthorized') {
    super(401, code, message)
  }
}

export class ForbiddenError extends GatewayError {
  constructor(message = 'not allowed', code = 'forbidden') {
    super(403, code, message)
  }
}

export class NotFoundError extends GatewayError {
  constructor(message: string, code = 'not_found') {
    super(404, code, message)
  }
}

export class ConflictError extends GatewayError {
  constructor(message: string, code = 'conflict') {
    super(409, code, message, undefined, undefined, code === 'conflict' ? undefined : { code })
  }
}

/** Whole seconds for a `Retry-After` header: at least 1. */
const retryAfterSeconds = (seconds: number): number => Math.max(1, Math.ceil(seconds))

export class RateLimitError extends GatewayError {
  /** `code` other than the default also goes in the envelope's data, with the seconds, for the console to word */
  constructor(message: string, retryAfter: number, code = 'rate_limited', status = 429) {
    const seconds = retryAfterSeconds(retryAfter)
    super(status, code, message, undefined, { 'retry-after': String(seconds) }, code === 'rate_limited' ? undefined : { code, retry_after: seconds })
  }
}

export class PayloadTooLargeError extends GatewayError {
  constructor(limitBytes: number) {
    super(413, 'payload_too_large', `request body is larger than the ${Math.round(limitBytes / 1048576)} MiB limit`)
  }
}

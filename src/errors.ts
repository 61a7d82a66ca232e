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
  constructor(message: string) {
    super(409, 'conflict', message)
  }
}

export class RateLimitError extends GatewayError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, 'rate_limited', message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) })
  }
}

export class PayloadTooLargeError extends GatewayError {
  constructor(limitBytes: number) {
    super(413, 'payload_too_large', `request body is larger than the ${Math.round(limitBytes / 1048576)} MiB limit`)
  }
}

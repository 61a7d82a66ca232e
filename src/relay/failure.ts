/**
 * Why one upstream attempt failed, and whether another channel might do better. Decided before the
 * first byte reaches the client; after that a failure becomes the protocol's own stream error event.
 */
export class UpstreamFailure extends Error {
  /** the channel's cached credentials were refused and dropped (a Vertex token): new ones are made next time, the key is not dead */
  credentialsRenewed?: boolean

  constructor(
    /** upstream HTTP status; 0 for network errors, timeouts and broken streams */
    readonly status: number,
    message: string,
    /** another channel may succeed (network, timeout, 408, 429, 5xx, 401/403 of this channel's key) */
    readonly retryable: boolean,
  ) {
    super(message)
  }
}

/** 400/413/422 mean the request itself is wrong: trying another channel only repeats it. (A 404 may be one channel missing the model.) */
export function isRetryableStatus(status: number): boolean {
  return !(status === 400 || status === 413 || status === 422)
}

export function networkFailure(error: unknown): UpstreamFailure {
  const message = error instanceof Error ? error.message : String(error)
  if ((error as { name?: string })?.name === 'TimeoutError') return new UpstreamFailure(0, 'upstream timed out', true)
  return new UpstreamFailure(0, `upstream unreachable: ${message}`, true)
}

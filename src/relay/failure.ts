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

export function networkFailure(error: unknown, url?: string): UpstreamFailure {
  if ((error as { name?: string })?.name === 'TimeoutError') return new UpstreamFailure(0, 'upstream timed out', true)
  // the socket's code (ECONNREFUSED) and the host, not the runtime's own sentence ("Is the computer able to access the url?")
  const code = (error as { code?: unknown })?.code
  const why = typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : error instanceof Error ? error.message : String(error)
  const host = url && URL.canParse(url) ? new URL(url).host : ''
  return new UpstreamFailure(0, `upstream unreachable: ${host ? `cannot connect to ${host} (${why})` : why}`, true)
}

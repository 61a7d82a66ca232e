
interface StreamRegistry {
  add(abort: AbortController): void
  delete(abort: AbortController): void
}

/** How the stream ended: broken off by the upstream, or cancelled by the client; neither when it ran to its end. */
interface StreamFinish {
  error?: string
  aborted?: boolean
}

export interface OperationStreamOptions {
  /** aborts the upstream call: on a silence longer than `idleMs`, and at the end of the shutdown grace period */
  abort: AbortController
  idleMs: number
  /** open streams, for the shutdown drain (telemetry/open-streams) */
  streams?: StreamRegistry
}

/**
 * A streamed operation answer (speech audio, a completions or transcription SSE stream) on its way to the client:
 * settled once, when it ends, breaks or the client stops reading; ended when the upstream falls silent for
 * `RelayStreamIdleSeconds`; registered as an open stream so shutdown waits for it, then aborts it.
 */
export function settledAtEnd(body: ReadableStream<Uint8Array>, done: (rest: StreamFinish) => void, options: OperationStreamOptions): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  const { abort, streams } = options
  let over = false
  let idle: ReturnType<typeof setTimeout> | undefined
  const arm = () => {
    clearTimeout(idle)
    idle = setTimeout(() => abort.abort(new DOMException('the upstream fell silent', 'TimeoutError')), options.idleMs)
  }
  const finish = (rest: StreamFinish) => {
    if (over) return
    over = true
    clearTimeout(idle)
    streams?.delete(abort)
    done(rest)
  }
  streams?.add(abort)
  arm()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: end, value } = await reader.read()
        if (end) {
          finish({})
          controller.close()
          return
        }
        arm()
        controller.enqueue(value)
      } catch (error) {
        const why = abort.signal.aborted ? (abort.signal.reason as Error)?.message : (error as Error).message
        finish({ error: `upstream broke off: ${why}` })
        controller.error(error)
      }
    },
    cancel(reason) {
      finish({ aborted: true })
      return reader.cancel(reason)
    },
  })
}

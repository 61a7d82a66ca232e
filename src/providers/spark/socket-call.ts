import { WebSocketDialFailed } from '../../outbound/websocket'
import type { SocketCall } from '../types'
import { sparkStatusOfCode } from '../../protocols/spark/decode'
import { parseSparkKey, signedSparkUrl, sparkDomain, sparkVersion } from './sign'


/** A frame larger than this, or an answer larger than that in all, ends the call: Spark's frames are a few KB. */
const SPARK_MAX_FRAME_BYTES = 1 << 20
const SPARK_MAX_ANSWER_BYTES = 16 << 20

const encoder = new TextEncoder()

/**
 * Dials `<base>/<version>/chat` signed (sign.ts), sends the request frame and waits for the first answer frame: one
 * whose `header.code` is not 0 comes back as a failed response (status 400/401/429/502 with the frame as its body,
 * for the protocol's parseError); a handshake refused likewise with its status. Otherwise a 200 whose body is the
 * frames as SSE events (`data: <frame>`), ended after the frame of status 2; a closed socket, an oversized frame or
 * answer, or the deadline passed errors the body.
 */
export async function sparkSocketCall(call: SocketCall, now = new Date()): Promise<Response> {
  const key = parseSparkKey(call.key)
  const version = sparkVersion(call.model, call.other)
  const base = `${call.baseUrl.replace(/\/+$/, '').replace(/^ws(s?):/, 'http$1:')}/${version}/chat`
  const signed = signedSparkUrl(base, key, now)
  let socket: WebSocket
  try {
    socket = await call.dial(signed, { headers: {}, signal: call.signal })
  } catch (error) {
    // the signed query carries the API key (base64) and a signature good for minutes: messages name the bare URL
    if (error instanceof Error) error.message = error.message.replaceAll(signed, base).replaceAll(signed.replace(/^http/, 'ws'), base)
    if (error instanceof WebSocketDialFailed && error.status >= 400) return Response.json({ message: error.message }, { status: error.status })
    throw error
  }
  const frame = JSON.parse(call.body) as { header: Record<string, unknown>; parameter: { chat: Record<string, unknown> } }
  frame.header.app_id = key.appId
  frame.parameter.chat.domain = sparkDomain(version)
  const frames = frameQueue(socket, call.signal, call.deadlineMs)
  socket.send(JSON.stringify(frame))
  const first = await frames.next()
  const code = (first.json.header as { code?: unknown } | undefined)?.code
  if (code !== undefined && code !== 0) {
    frames.close()
    return new Response(first.text, { status: sparkStatusOfCode(Number(code)), headers: { 'content-type': 'application/json' } })
  }
  return new Response(sseBody(first, frames), { headers: { 'content-type': 'text/event-stream' } })
}

interface Frame {
  text: string
  json: Record<string, unknown>
}

function isLast(frame: Frame): boolean {
  const choices = (frame.json.payload as { choices?: { status?: unknown } } | undefined)?.choices
  return (choices?.status ?? (frame.json.header as { status?: unknown } | undefined)?.status) === 2
}

function sseBody(first: Frame, frames: FrameQueue): ReadableStream<Uint8Array> {
  let pending: Frame | undefined = first
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const frame = pending ?? (await frames.next())
        pending = undefined
        controller.enqueue(encoder.encode(`data: ${frame.text}\n\n`))
        if (isLast(frame)) {
          frames.close()
          controller.close()
        }
      } catch (error) {
        frames.close()
        controller.error(error)
      }
    },
    cancel() {
      frames.close()
    },
  })
}

interface FrameQueue {
  /** the next frame; rejects once the socket closed early, the signal aborted, a bound was passed or the deadline came */
  next(): Promise<Frame>
  close(): void
}

/** The socket's messages as frames, read one at a time, bounded in size, count of bytes and time. */
function frameQueue(socket: WebSocket, signal: AbortSignal, deadlineMs: number): FrameQueue {
  const ready: Frame[] = []
  let failure: Error | undefined
  let waiting: { resolve(frame: Frame): void; reject(error: Error): void } | undefined
  let total = 0
  const fail = (error: Error) => {
    if (failure) return
    failure = error
    waiting?.reject(error)
    waiting = undefined
    close()
  }
  const onMessage = (event: MessageEvent) => {
    const text = typeof event.data === 'string' ? event.data : new TextDecoder().decode(event.data as ArrayBuffer)
    const size = encoder.encode(text).byteLength
    total += size
    if (size > SPARK_MAX_FRAME_BYTES) return fail(new Error(`Spark sent a frame of ${size} bytes (at most ${SPARK_MAX_FRAME_BYTES})`))
    if (total > SPARK_MAX_ANSWER_BYTES) return fail(new Error(`Spark's answer passed ${SPARK_MAX_ANSWER_BYTES} bytes`))
    let json: Record<string, unknown>
    try {
      json = JSON.parse(text) as Record<string, unknown>
    } catch {
      return fail(new Error(`Spark sent a frame that is not JSON: ${text.slice(0, 200)}`))
    }
    if (waiting) {
      waiting.resolve({ text, json })
      waiting = undefined
    } else ready.push({ text, json })
  }
  const onClose = (event: CloseEvent) => fail(new Error(`Spark closed the connection before the answer ended (${event.code}${event.reason ? ` ${event.reason}` : ''})`))
  const onAbort = () => fail(signal.reason instanceof Error ? signal.reason : new Error('the call was aborted'))
  const timer = setTimeout(() => fail(new DOMException(`Spark's answer took longer than ${Math.round(deadlineMs / 1000)} s`, 'TimeoutError')), deadlineMs)
  function close(): void {
    clearTimeout(timer)
    socket.removeEventListener('message', onMessage)
    socket.removeEventListener('close', onClose)
    signal.removeEventListener('abort', onAbort)
    if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(1000)
    failure ??= new Error('the call is over')
  }
  socket.addEventListener('message', onMessage)
  socket.addEventListener('close', onClose)
  if (signal.aborted) onAbort()
  else signal.addEventListener('abort', onAbort)
  return {
    next() {
      const frame = ready.shift()
      if (frame) return Promise.resolve(frame)
      if (failure) return Promise.reject(failure)
      return new Promise((resolve, reject) => (waiting = { resolve, reject }))
    },
    close,
  }
}

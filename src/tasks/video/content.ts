import type { TaskRow } from '../../db/repos/tasks'
import { GatewayError, NotFoundError } from '../../errors'
import type { OptionStore } from '../../options/store'
import { OutboundRedirected, type OutboundFetch } from '../../outbound/fetch'
import { joinUrl } from '../../providers/url'
import type { Channel } from '../../relay/routing'
import { videoVendorOf } from './vendors'

export interface ContentDeps {
  options: Pick<OptionStore, 'get'>
  outbound: { fetch: OutboundFetch }
  channels: { get(id: number): Channel | undefined }
  clock: { now(): number }
}

/** How long the upstream may take to start answering; the bytes then flow as long as the client reads. */
const HEADERS_TIMEOUT_MS = 30_000
/** Redirects followed to a video's bytes (a CDN's signed URL), each one checked by the guard again. */
const MAX_REDIRECTS = 3
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified']

/**
 * A finished video's bytes, streamed from its vendor through the outbound guard: Sora's (and OpenAI's)
 * `/v1/videos/{id}/content` with the channel's key, or the result URL another vendor gave (Veo's with its key).
 * A `Range` is passed on so a `<video>` can seek; at most VideoContentMaxBytes are carried (a longer answer is
 * refused when it says so up front, cut when it does not). Nothing is stored on the gateway.
 */
export async function videoContent(deps: ContentDeps, task: TaskRow, request: Request, variant?: string): Promise<Response> {
  const vendor = videoVendorOf(task.platform)
  if (!vendor) throw new NotFoundError(`task ${task.taskId} is not a video`, 'task_not_found')
  if (task.status !== 'SUCCESS') throw new GatewayError(400, 'video_not_ready', `the video is not ready: it is ${task.status}`)
  const channel = deps.channels.get(task.channelId)
  const key = channel?.keys[0] ?? ''
  let url: string
  let headers: Record<string, string>
  if (vendor.content) {
    if (!channel) throw new NotFoundError("the video's channel was deleted: its bytes can no longer be fetched", 'channel_not_found')
    const call = vendor.content(task.upstreamTaskId || task.taskId)
    url = joinUrl(channel.baseUrl, call.path) + (variant ? `?variant=${encodeURIComponent(variant)}` : '')
    headers = { ...call.headers, ...vendor.authorize(new URL(url), call, key, deps.clock.now()) }
  } else {
    if (!task.imageUrl) throw new GatewayError(502, 'upstream_error', 'the vendor gave no URL for this video')
    if (task.imageUrl.startsWith('data:')) return dataUrlResponse(task.imageUrl, deps.options.get<number>('VideoContentMaxBytes'))
    url = task.imageUrl
    headers = vendor.resultHeaders?.(key) ?? {}
  }
  const range = request.headers.get('range')
  if (range) headers.range = range
  return stream(deps, await dial(deps, url, headers, request.signal, channel?.overrides.proxy))
}

async function dial(deps: ContentDeps, first: string, headers: Record<string, string>, signal: AbortSignal, proxy: string | undefined): Promise<Response> {
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(new DOMException('the video upstream did not answer', 'TimeoutError')), HEADERS_TIMEOUT_MS)
  const gone = () => abort.abort(signal.reason)
  signal.addEventListener('abort', gone, { once: true })
  let url = first
  try {
    for (let hops = 0; ; hops++) {
      try {
        return await deps.outbound.fetch(url, { headers, signal: abort.signal, proxy })
      } catch (error) {
        if (!(error instanceof OutboundRedirected) || !error.location || hops >= MAX_REDIRECTS) throw error
        const next = new URL(error.location, url)
        // a key goes nowhere but where it was meant for
        if (next.origin !== new URL(url).origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => name === 'range'))
        url = next.toString()
      }
    }
  } catch (error) {
    if (error instanceof GatewayError) throw error
    throw new GatewayError(502, 'upstream_error', `the video could not be fetched: ${(error as Error).message}`)
  } finally {
    clearTimeout(timer)
  }
}

function stream(deps: ContentDeps, upstream: Response): Response {
  if (upstream.status !== 200 && upstream.status !== 206) {
    void upstream.body?.cancel()
    throw new GatewayError(502, 'upstream_error', `the video's upstream answered ${upstream.status}`)
  }
  const max = deps.options.get<number>('VideoContentMaxBytes')
  const declared = Number(upstream.headers.get('content-length') ?? NaN)
  if (declared > max) {
    void upstream.body?.cancel()
    throw new GatewayError(502, 'video_too_large', `the video is ${declared} bytes, over VideoContentMaxBytes (${max})`)
  }
  const headers = new Headers({ 'cache-control': 'private, max-age=3600' })
  for (const name of PASSED_HEADERS) {
    const value = upstream.headers.get(name)
    if (value) headers.set(name, value)
  }
  if (!headers.has('content-type')) headers.set('content-type', 'video/mp4')
  return new Response(upstream.body ? upstream.body.pipeThrough(bounded(max)) : null, { status: upstream.status, headers })
}

/** Passes at most `max` bytes, then ends the stream with an error (the client sees a cut transfer, not a whole one). */
function bounded(max: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength
      if (seen > max) return controller.error(new Error(`the video passed VideoContentMaxBytes (${max})`))
      controller.enqueue(chunk)
    },
  })
}

function dataUrlResponse(url: string, max: number): Response {
  const match = /^data:([\w/+.-]*)(;base64)?,/.exec(url)
  if (!match || !match[2]) throw new GatewayError(502, 'upstream_error', 'the video is an unreadable data URL')
  const bytes = Buffer.from(url.slice(match[0].length), 'base64')
  if (bytes.byteLength > max) throw new GatewayError(502, 'video_too_large', `the video is ${bytes.byteLength} bytes, over VideoContentMaxBytes (${max})`)
  return new Response(bytes, { headers: { 'content-type': match[1] || 'video/mp4', 'cache-control': 'private, max-age=3600' } })
}

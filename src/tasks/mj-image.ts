import { GatewayError } from '../errors'
import type { OutboundFetch } from '../outbound/fetch'
import type { Channel } from '../relay/routing'

/** The largest Midjourney image relayed (an upscale is a few MB); past it the stream is cut. */
const MJ_IMAGE_MAX_BYTES = 32 * 1024 * 1024
/** The image types relayed as they are (new-api's list); anything else is not an image to hand a browser. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif'])

interface ImageDeps {
  outbound: { fetch: OutboundFetch }
  channels: { get(id: number): Channel | undefined }
}

/**
 * A finished Midjourney task's image, fetched from its `imageUrl` through the outbound guard (the channel's proxy
 * when it has one) and streamed to the client as it arrives, at most MJ_IMAGE_MAX_BYTES: new-api's `/mj/image/{id}`,
 * so clients need not reach the upstream's image host. Every refusal is a 502 naming why (never the URL).
 */
export async function midjourneyImage(deps: ImageDeps, task: { imageUrl: string; channelId: number }, signal: AbortSignal): Promise<Response> {
  if (!task.imageUrl) throw new GatewayError(404, 'image_not_ready', 'the task has no image yet')
  let response: Response
  try {
    response = await deps.outbound.fetch(task.imageUrl, { method: 'GET', headers: { accept: 'image/*' }, signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]), proxy: deps.channels.get(task.channelId)?.overrides.proxy })
  } catch (error) {
    throw new GatewayError(502, 'image_fetch_failed', `the image could not be fetched: ${(error as Error).message.slice(0, 200)}`)
  }
  const refuse = async (message: string) => {
    await response.body?.cancel().catch(() => {})
    return new GatewayError(502, 'image_fetch_failed', message)
  }
  if (response.status !== 200) throw await refuse(`the image host answered ${response.status}`)
  const type = (response.headers.get('content-type') ?? 'image/jpeg').split(';')[0]!.trim().toLowerCase()
  if (!IMAGE_TYPES.has(type)) throw await refuse(`the image host sent ${type.slice(0, 60)}, not an image`)
  const declared = Number(response.headers.get('content-length') ?? 0)
  if (declared > MJ_IMAGE_MAX_BYTES) throw await refuse(`the image is larger than ${MJ_IMAGE_MAX_BYTES / 1048576} MB`)
  const headers: Record<string, string> = { 'content-type': type, 'cache-control': 'private, max-age=86400', 'x-content-type-options': 'nosniff' }
  if (declared > 0) headers['content-length'] = String(declared)
  return new Response(response.body ? bounded(response.body, MJ_IMAGE_MAX_BYTES) : null, { headers })
}

/** The body as it arrives, broken off past `maxBytes` (a host that declared no length and sends without end). */
function bounded(body: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  let size = 0
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength
        if (size > maxBytes) controller.error(new Error(`the image is larger than ${maxBytes / 1048576} MB`))
        else controller.enqueue(chunk)
      },
    }),
  )
}

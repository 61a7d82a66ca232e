import { boundedData, num, str } from '../types'
import { parseData } from '../midjourney'
import { bearer, objectOf, VideoStatus, type UpstreamCall, type VideoVendor } from './types'

/** Sora's sizes that cost more per second: sora-2-pro's $0.50 against $0.30 (OpenAI's list prices), new-api's 1.666667. */
const LARGE_SIZES = new Set(['1792x1024', '1024x1792'])

/**
 * OpenAI's Videos API (Sora), as OpenAI serves it and new-api relays it: `POST /v1/videos` (multipart, as the SDK
 * sends it, or JSON) answers a video object `{id, object: "video", status, progress, seconds, size …}`, polled at
 * `GET /v1/videos/{id}`; the bytes at `GET /v1/videos/{id}/content`; `POST /v1/videos/{id}/remix {prompt}`.
 * Priced per second × size: ModelPrice (US$ per second) × `seconds` × `size`.
 */
export const soraVendor: VideoVendor = {
  id: 'sora',
  ratios(request) {
    const source = request.origin ? parseData(request.origin.data) : undefined
    const seconds = source ? Number(str(source.seconds)) || 4 : (request.seconds ?? 4)
    const size = source ? str(source.size) : (request.size ?? '720x1280')
    return { seconds, size: LARGE_SIZES.has(size) ? 1.666667 : 1 }
  },
  action: (request) => (request.origin ? 'remix' : request.images.length || request.files.length ? 'generate' : 'textGenerate'),

  submit(request, upstreamModel): UpstreamCall {
    if (request.origin) {
      const id = request.origin.upstreamTaskId || request.origin.taskId
      return { method: 'POST', path: `/v1/videos/${encodeURIComponent(id)}/remix`, body: JSON.stringify({ prompt: request.prompt }), headers: { 'content-type': 'application/json' } }
    }
    const fields: Record<string, string> = { model: upstreamModel, prompt: request.prompt }
    if (request.seconds !== undefined) fields.seconds = String(request.seconds)
    if (request.size) fields.size = request.size
    if (request.files.length) {
      const form = new FormData()
      for (const [name, value] of Object.entries(fields)) form.append(name, value)
      form.append('input_reference', request.files[0]!)
      return { method: 'POST', path: '/v1/videos', body: form, headers: {} }
    }
    const body: Record<string, unknown> = { ...request.metadata, ...fields }
    if (request.images[0]) body.input_reference = { image_url: request.images[0] }
    return { method: 'POST', path: '/v1/videos', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
  },

  readSubmit(body) {
    const video = objectOf(body)
    const id = str(video.id) || str(video.task_id)
    if (!id) return { accepted: false, message: str(objectOf(video.error).message) || 'the upstream answered no video id' }
    return { accepted: true, upstreamId: id }
  },

  fetch: (_task, upstreamId) => ({ method: 'GET', path: `/v1/videos/${encodeURIComponent(upstreamId)}`, headers: {} }),

  readFetch(body, maxData) {
    const video = objectOf(body)
    if (!str(video.id) && !str(video.status)) return null
    const status = str(video.status).toLowerCase()
    const error = str(objectOf(video.error).message)
    const data = boundedData(pick(video), maxData, ['seconds', 'size', 'model'])
    const progress = `${Math.max(0, Math.min(100, num(video.progress)))}%`
    if (status === 'completed') return { patch: { status: VideoStatus.success, progress: '100%', data, finishTime: num(video.completed_at) * 1000 }, final: 'SUCCESS' }
    if (status === 'failed') return { patch: { status: VideoStatus.failure, failReason: (error || 'the video failed').slice(0, 1000), data }, final: 'FAILURE' }
    return { patch: { status: status === 'in_progress' ? VideoStatus.running : VideoStatus.queued, progress, data } }
  },

  authorize: (_url, _call, key) => bearer(key),
  content: (upstreamId) => ({ method: 'GET', path: `/v1/videos/${encodeURIComponent(upstreamId)}/content`, headers: {} }),
}

/** What is kept of Sora's video object: what the OpenAI shape shows, never the upstream's id. */
function pick(video: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of ['model', 'seconds', 'size', 'created_at', 'completed_at', 'expires_at', 'prompt']) if (video[key] !== undefined && video[key] !== null) out[key] = video[key]
  return out
}


import { createHmac } from 'node:crypto'
import { boundedData, str } from '../types'
import { bearer, objectOf, VideoStatus, type UpstreamCall, type VideoRequest, type VideoVendor } from './types'

const path = (action: string) => (action === 'generate' ? '/v1/videos/image2video' : '/v1/videos/text2video')

/**
 * Kling's API (app.klingai.com/global/dev/document-api): `POST /v1/videos/text2video` or `/image2video` answers
 * `{code: 0, data: {task_id, task_status}}`, polled at `GET …/{task_id}` until `task_status` is `succeed` (the video
 * in `task_result.videos[0].url`) or `failed` (`task_status_msg`). The key is `accessKey|secretKey`, sent as a JWT
 * (HS256, issuer the access key, 30 minutes) minted per call; a key without `|` is sent as it is (a relay's key).
 * Priced per task, as new-api prices Kling.
 */
export const klingVendor: VideoVendor = {
  id: 'kling',
  ratios: () => ({}),
  action: (request) => (request.images.length ? 'generate' : 'textGenerate'),

  submit(request: VideoRequest, upstreamModel: string): UpstreamCall {
    const { model: _model, model_name: _name, ...own } = request.metadata
    const body: Record<string, unknown> = {
      model_name: upstreamModel,
      prompt: request.prompt,
      mode: 'std',
      duration: String(request.seconds ?? 5),
      aspect_ratio: aspectRatio(request.size),
      ...(request.images[0] && { image: request.images[0] }),
      ...(request.images[1] && { image_tail: request.images[1] }),
      ...own,
    }
    return { method: 'POST', path: path(this.action(request)), body: JSON.stringify(body), headers: { 'content-type': 'application/json', accept: 'application/json' } }
  },

  readSubmit(body) {
    const answer = objectOf(body)
    const taskId = str(objectOf(answer.data).task_id)
    if (answer.code !== 0 || !taskId) return { accepted: false, message: `${str(answer.message) || 'the task was not taken'} (code ${str(answer.code)})` }
    return { accepted: true, upstreamId: taskId }
  },

  fetch: (task, upstreamId) => ({ method: 'GET', path: `${path(task.action)}/${encodeURIComponent(upstreamId)}`, headers: { accept: 'application/json' } }),

  readFetch(body, maxData) {
    const answer = objectOf(body)
    const data = objectOf(answer.data)
    if (answer.code !== 0 || !str(data.task_id)) return null
    const video = objectOf((objectOf(data.task_result).videos as unknown[] | undefined)?.[0])
    const kept = boundedData({ task_status: data.task_status, seconds: str(video.duration) || undefined, created_at: data.created_at, updated_at: data.updated_at }, maxData, [])
    switch (str(data.task_status)) {
      case 'succeed':
        return { patch: { status: VideoStatus.success, progress: '100%', imageUrl: str(video.url).slice(0, 4000), data: kept }, final: 'SUCCESS' }
      case 'failed':
        return { patch: { status: VideoStatus.failure, failReason: (str(data.task_status_msg) || 'the video failed').slice(0, 1000), data: kept }, final: 'FAILURE' }
      case 'processing':
        return { patch: { status: VideoStatus.running, progress: '50%', data: kept } }
      default:
        return { patch: { status: VideoStatus.submitted, progress: '10%', data: kept } }
    }
  },

  authorize: (_url, _call, key, now) => bearer(key.includes('|') ? klingJwt(key, now) : key),
}

/** The JWT Kling's API takes: HS256 over `{iss: accessKey, exp: now + 30 min, nbf: now - 5 s}` with the secret key. */
function klingJwt(key: string, nowMs: number): string {
  const [accessKey, secretKey] = key.split('|').map((part) => part.trim())
  const now = Math.floor(nowMs / 1000)
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ iss: accessKey, exp: now + 1800, nbf: now - 5 })}`
  return `${unsigned}.${createHmac('sha256', secretKey ?? '').update(unsigned).digest('base64url')}`
}

/** OpenAI's size as Kling's aspect ratio (new-api's table; anything else square). */
function aspectRatio(size: string | undefined): string {
  if (size === '1280x720' || size === '1920x1080') return '16:9'
  if (size === '720x1280' || size === '1080x1920') return '9:16'
  return size && /^\d+:\d+$/.test(size) ? size : '1:1'
}

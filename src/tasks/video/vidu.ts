import { boundedData, str } from '../types'
import { objectOf, VideoStatus, type UpstreamCall, type VideoRequest, type VideoVendor } from './types'

const ROUTES: Record<string, string> = { textGenerate: 'text2video', generate: 'img2video', firstTailGenerate: 'start-end2video', referenceGenerate: 'reference2video' }

/**
 * Vidu's API (platform.vidu.com/docs): `POST /ent/v2/{text2video,img2video,start-end2video,reference2video}` (one
 * image, two as first and last frames, more as references) answers `{task_id, state}`; `GET
 * /ent/v2/tasks/{id}/creations` answers `state` created / queueing / processing / success (`creations[0].url`) /
 * failed (`err_code`). The key goes as `Authorization: Token <key>`. Priced per task.
 */
export const viduVendor: VideoVendor = {
  id: 'vidu',
  ratios: () => ({}),
  action: (request) => (request.images.length > 2 ? 'referenceGenerate' : request.images.length === 2 ? 'firstTailGenerate' : request.images.length ? 'generate' : 'textGenerate'),

  submit(request: VideoRequest, upstreamModel: string): UpstreamCall {
    const body = {
      model: upstreamModel,
      images: request.images,
      prompt: request.prompt,
      duration: request.seconds ?? 5,
      resolution: request.size ?? '1080p',
      movement_amplitude: 'auto',
      ...request.metadata,
    }
    return { method: 'POST', path: `/ent/v2/${ROUTES[viduVendor.action(request)]}`, body: JSON.stringify(body), headers: { 'content-type': 'application/json', accept: 'application/json' } }
  },

  readSubmit(body) {
    const answer = objectOf(body)
    const taskId = str(answer.task_id)
    if (!taskId || answer.state === 'failed') return { accepted: false, message: str(answer.err_code) || str(answer.message) || 'the task was not taken' }
    return { accepted: true, upstreamId: taskId }
  },

  fetch: (_task, upstreamId) => ({ method: 'GET', path: `/ent/v2/tasks/${encodeURIComponent(upstreamId)}/creations`, headers: { accept: 'application/json' } }),

  readFetch(body, maxData) {
    const answer = objectOf(body)
    const state = str(answer.state)
    if (!state) return null
    const creation = objectOf((answer.creations as unknown[] | undefined)?.[0])
    const kept = boundedData({ state, cover_url: str(creation.cover_url) || undefined, credits: answer.credits }, maxData, [])
    if (state === 'success') return { patch: { status: VideoStatus.success, progress: '100%', imageUrl: str(creation.url).slice(0, 4000), data: kept }, final: 'SUCCESS' }
    if (state === 'failed') return { patch: { status: VideoStatus.failure, failReason: (str(answer.err_code) || 'the video failed').slice(0, 1000), data: kept }, final: 'FAILURE' }
    return { patch: { status: state === 'processing' ? VideoStatus.running : VideoStatus.submitted, progress: state === 'processing' ? '50%' : '10%', data: kept } }
  },

  authorize: (_url, _call, key): Record<string, string> => (key ? { authorization: `Token ${key}` } : {}),
}

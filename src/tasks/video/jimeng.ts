import { boundedData, str } from '../types'
import { bearer, objectOf, VideoStatus, type UpstreamCall, type VideoRequest, type VideoVendor } from './types'
import { volcSign } from './volc-sign'

const SUBMIT = '/?Action=CVSync2AsyncSubmitTask&Version=2022-08-31'
const RESULT = '/?Action=CVSync2AsyncGetResult&Version=2022-08-31'

/** Jimeng 3.0's `req_key` by its inputs (Volcengine's docs, as new-api resolves it): text, one image, first and last frames. */
function reqKeyOf(model: string, images: number): string {
  if (!model.includes('jimeng_v30')) return model
  if (model === 'jimeng_v30_pro') return 'jimeng_ti2v_v30_pro'
  if (images > 1) return model.replace('jimeng_v30', 'jimeng_i2v_first_tail_v30').replace(/p$/, '')
  if (images === 1) return model.replace('jimeng_v30', 'jimeng_i2v_first_v30').replace(/p$/, '')
  return model.replace('jimeng_v30', 'jimeng_t2v_v30')
}

const imagesOfAction = (action: string) => (action === 'firstTailGenerate' ? 2 : action === 'generate' ? 1 : 0)

/**
 * Jimeng (即梦) on Volcengine's visual API: `POST /?Action=CVSync2AsyncSubmitTask&Version=2022-08-31` with the model
 * as `req_key` answers `{code: 10000, data: {task_id}}`; `…CVSync2AsyncGetResult {req_key, task_id}` answers
 * `data.status` in_queue / generating / done (`video_url`) / not_found / expired. Every call is signed with the key's
 * `accessKey|secretKey` (volc-sign.ts). Priced per task (new-api's default; 10 s asks twice the frames).
 */
export const jimengVendor: VideoVendor = {
  id: 'jimeng',
  ratios: () => ({}),
  action: (request) => (request.images.length > 1 ? 'firstTailGenerate' : request.images.length ? 'generate' : 'textGenerate'),

  submit(request: VideoRequest, upstreamModel: string): UpstreamCall {
    const body: Record<string, unknown> = {
      req_key: reqKeyOf(upstreamModel, request.images.length),
      prompt: request.prompt,
      seed: -1,
      aspect_ratio: aspectRatio(request.size),
      frames: request.seconds === 10 ? 241 : 121,
      ...(request.images.length && (request.images[0]!.startsWith('http') ? { image_urls: request.images } : { binary_data_base64: request.images.map((i) => i.replace(/^data:[^,]*,/, '')) })),
      ...request.metadata,
    }
    return { method: 'POST', path: SUBMIT, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
  },

  readSubmit(body) {
    const answer = objectOf(body)
    const taskId = str(objectOf(answer.data).task_id)
    if (answer.code !== 10000 || !taskId) return { accepted: false, message: `${str(answer.message) || 'the task was not taken'} (code ${str(answer.code)})` }
    return { accepted: true, upstreamId: taskId }
  },

  fetch: (task, upstreamId, upstreamModel) => ({
    method: 'POST',
    path: RESULT,
    body: JSON.stringify({ req_key: reqKeyOf(upstreamModel, imagesOfAction(task.action)), task_id: upstreamId }),
    headers: { 'content-type': 'application/json' },
  }),

  readFetch(body, maxData) {
    const answer = objectOf(body)
    const data = objectOf(answer.data)
    const status = str(data.status)
    if (status === 'not_found') return null
    const kept = boundedData({ status }, maxData, [])
    if (answer.code !== 10000 || status === 'expired') return { patch: { status: VideoStatus.failure, failReason: (str(answer.message) || `the task ${status || 'failed'}`).slice(0, 1000), data: kept }, final: 'FAILURE' }
    if (status === 'done') return { patch: { status: VideoStatus.success, progress: '100%', imageUrl: str(data.video_url).slice(0, 4000), data: kept }, final: 'SUCCESS' }
    return { patch: { status: status === 'generating' ? VideoStatus.running : VideoStatus.queued, progress: status === 'generating' ? '50%' : '10%', data: kept } }
  },

  authorize(url, call, key, now) {
    const [accessKey, secretKey] = key.split('|').map((part) => part.trim())
    if (secretKey === undefined) return bearer(key)
    return volcSign(url, call.method, typeof call.body === 'string' ? call.body : '', accessKey!, secretKey, now)
  },
}

function aspectRatio(size: string | undefined): string {
  if (!size) return '16:9'
  if (/^\d+:\d+$/.test(size)) return size
  const [w, h] = size.split('x').map(Number)
  return w && h ? (w > h ? '16:9' : w < h ? '9:16' : '1:1') : '16:9'
}

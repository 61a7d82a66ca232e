import type { TaskRow } from '../../db/repos/tasks'
import type { VideoVendorId } from '../../providers/types'
import type { PolledTask } from '../types'

/**
 * A client's video request, whatever route it came by (OpenAI's `/v1/videos`, new-api's `/v1/video/generations`,
 * Kling's and Jimeng's own): new-api's TaskSubmitReq, checked.
 */
export interface VideoRequest {
  /** the priced name the channels list (sora-2, kling-v1, jimeng_vgfm_t2v_l20 …) */
  model: string
  prompt: string
  /** the clip's length the client asked for, in seconds (undefined: the vendor's default) */
  seconds?: number
  /** `WxH` (OpenAI's), or a vendor's own label (Vidu's `1080p`) */
  size?: string
  /** image inputs: URLs, data URLs or bare base64 */
  images: string[]
  /** files uploaded as `input_reference` (multipart): Sora gets them as they came, others as base64 */
  files: File[]
  /** the vendor's own fields (new-api's `metadata`; a Kling or Jimeng body as it came): laid over the vendor's body */
  metadata: Record<string, unknown>
  /** Sora's remix: the client's earlier task, run again on its channel */
  origin?: TaskRow
}

/** One upstream call, relative to the channel's base URL. */
export interface UpstreamCall {
  method: 'GET' | 'POST'
  /** from the channel's base URL, query included */
  path: string
  body?: string | FormData
  /** content type and any fixed headers; the key's own headers come from `authorize` */
  headers: Record<string, string>
}

/** What a submit's answer said. */
type SubmitRead = { accepted: true; upstreamId: string } | { accepted: false; message: string }

/**
 * A video API: how a request becomes the vendor's submit, how a task is fetched (one call per task), how a key
 * authorizes a call (a Bearer, Kling's JWT, Volcengine's HMAC signature), and what its answers mean.
 */
export interface VideoVendor {
  id: VideoVendorId
  /** new-api's OtherRatios for the request (seconds, size …): the model's ModelPrice is multiplied by each */
  ratios(request: VideoRequest): Record<string, number>
  /** the action kept with the task (new-api's: textGenerate, generate, firstTailGenerate, remix) */
  action(request: VideoRequest): string
  submit(request: VideoRequest, upstreamModel: string): UpstreamCall | Promise<UpstreamCall>
  readSubmit(body: unknown): SubmitRead
  fetch(task: TaskRow, upstreamId: string, upstreamModel: string): UpstreamCall
  /** the task in a fetch's answer (`taskId` is filled by the caller); null when the vendor does not know it */
  readFetch(body: unknown, maxData: number): Omit<PolledTask, 'taskId'> | null
  /** the headers that authorize `call` to `url` with the channel's key (signatures cover the body and the time) */
  authorize(url: URL, call: UpstreamCall, key: string, now: number): Record<string, string>
  /** where the video's bytes are: Sora serves them itself; others give a URL kept as the task's result */
  content?(upstreamId: string): UpstreamCall
  /** the headers a result URL is fetched with (Veo's file URI wants the key); none for a public URL */
  resultHeaders?(key: string): Record<string, string>
}

/** new-api's task statuses, which the lists and the OpenAI shape read. */
export const VideoStatus = { submitted: 'SUBMITTED', queued: 'QUEUED', running: 'IN_PROGRESS', success: 'SUCCESS', failure: 'FAILURE' } as const

export const bearer = (key: string): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {})

export function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

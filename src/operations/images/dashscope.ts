import { UpstreamFailure } from '../../relay/failure'
import type { FollowUp, OperationDialect } from '../types'
import type { ImageGenerationRequest } from './generation-request'
import { imageUsage } from './usage'

/** The client's fields DashScope's text-to-image takes as `parameters` (besides `n` and `size`). */
const PARAMETERS = ['seed', 'prompt_extend', 'watermark'] as const
/** Waits between polls, in ms, the last repeated: quick for the first answer, gentle after (tasks take 5–60 s). */
const POLL_WAITS = [500, 1000, 2000, 3000, 5000]
/** A task state that will not change (DashScope's PENDING and RUNNING change). */
const FINAL_FAILURES = new Set(['FAILED', 'CANCELED', 'UNKNOWN'])
/** A failure the same request meets on every channel: the client's prompt or parameters. */
const CLIENT_CODES = new Set(['InvalidParameter', 'DataInspectionFailed', 'IPInfringementSuspect'])

interface TaskAnswer {
  output?: { task_id?: unknown; task_status?: unknown; results?: unknown; code?: unknown; message?: unknown }
}

/**
 * OpenAI's `/v1/images/generations` to DashScope's asynchronous text-to-image (Wanx, Qwen-Image): submitted with
 * `X-DashScope-Async: enable` as `{model, input: {prompt, negative_prompt}, parameters: {n, size: "W*H", …}}`, the
 * task polled at `/api/v1/tasks/{id}` within the attempt (its deadline bounds the wait), and its result links
 * answered as OpenAI's `data: [{url, revised_prompt}]`. Images the task failed are neither returned nor billed.
 */
export const dashscopeImageGeneration: OperationDialect<ImageGenerationRequest> = {
  streams: false,
  encode(request, upstreamModel) {
    const { body } = request
    const parameters: Record<string, unknown> = { n: request.choice.n }
    if (typeof body.size === 'string' && body.size !== 'auto') parameters.size = body.size.replace('x', '*')
    for (const name of PARAMETERS) if (body[name] !== undefined) parameters[name] = body[name]
    const input: Record<string, unknown> = { prompt: body.prompt }
    if (typeof body.negative_prompt === 'string') input.negative_prompt = body.negative_prompt
    return { body: JSON.stringify({ model: upstreamModel, input, parameters }), contentType: 'application/json', headers: { 'X-DashScope-Async': 'enable' } }
  },
  async decode(response, _request, follow) {
    const submitted = await answerOf(response)
    const taskId = submitted.output?.task_id
    if (typeof taskId !== 'string' || !/^[\w-]{1,128}$/.test(taskId)) throw new UpstreamFailure(0, 'DashScope accepted the request without a task id', true)
    const done = await pollTask(taskId, follow)
    const data = resultsOf(done).map((r) => ({ url: r.url, ...(r.actualPrompt ? { revised_prompt: r.actualPrompt } : {}) }))
    return { body: JSON.stringify({ created: Math.floor(Date.now() / 1000), data }), contentType: 'application/json', usage: imageUsage(data.length) }
  },
}

async function pollTask(taskId: string, follow: FollowUp): Promise<TaskAnswer> {
  for (let poll = 0; ; poll++) {
    await follow.wait(POLL_WAITS[Math.min(poll, POLL_WAITS.length - 1)]!)
    const task = await answerOf(await follow.get(`/api/v1/tasks/${taskId}`))
    const status = task.output?.task_status
    if (status === 'SUCCEEDED') return task
    if (typeof status === 'string' && FINAL_FAILURES.has(status)) throw taskFailure(status, task)
  }
}

function taskFailure(status: string, task: TaskAnswer): UpstreamFailure {
  const code = typeof task.output?.code === 'string' ? task.output.code : ''
  const message = typeof task.output?.message === 'string' ? task.output.message.slice(0, 500) : ''
  const text = `DashScope task ${status.toLowerCase()}${code ? ` (${code})` : ''}${message ? `: ${message}` : ''}`
  return CLIENT_CODES.has(code) ? new UpstreamFailure(400, text, false) : new UpstreamFailure(0, text, true)
}

function resultsOf(task: TaskAnswer): { url: string; actualPrompt?: string }[] {
  const results = Array.isArray(task.output?.results) ? (task.output.results as { url?: unknown; actual_prompt?: unknown }[]) : []
  const made = results.flatMap((r) => (typeof r?.url === 'string' && r.url ? [{ url: r.url, actualPrompt: typeof r.actual_prompt === 'string' ? r.actual_prompt : undefined }] : []))
  // every image failed (each result a `{code, message}`): nothing delivered, nothing billed
  if (made.length === 0) throw new UpstreamFailure(0, 'DashScope finished the task without images', true)
  return made
}

async function answerOf(response: Response): Promise<TaskAnswer> {
  const text = await response.text()
  try {
    return JSON.parse(text) as TaskAnswer
  } catch {
    throw new UpstreamFailure(0, `DashScope sent an answer that is not JSON: ${text.slice(0, 200)}`, true)
  }
}

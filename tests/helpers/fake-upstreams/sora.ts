import { createTaskStore, type FakeTask } from './task-store'

/** The bytes every finished fake video serves: 200 KB of a repeating pattern, so a range can be checked. */
export const SORA_VIDEO = Uint8Array.from({ length: 200_000 }, (_, i) => i % 251)

/**
 * OpenAI's Videos API as documented (platform.openai.com/docs/api-reference/videos): `POST /v1/videos` (multipart or
 * JSON) answers a video object; `GET /v1/videos/{id}` advances it (task-store's script: `slow`, `fail`, `lost` in the
 * prompt); `GET …/content` serves the MP4 (Range too) once completed; `POST …/remix {prompt}`. Bearer key; a prompt
 * with `banned` is refused 400 as the moderation does.
 */
export async function startFakeSora(key: string) {
  const store = createTaskStore('video_')
  const meta = new Map<string, { model: string; seconds: string; size: string; remixOf?: string }>()
  const submits: { contentType: string; fields: Record<string, string>; file?: { name: string; type: string; bytes: number } }[] = []
  const view = (task: FakeTask) => {
    const m = meta.get(task.id)!
    const status = task.status === 'SUCCESS' ? 'completed' : task.status === 'FAILURE' ? 'failed' : task.status === 'IN_PROGRESS' ? 'in_progress' : 'queued'
    return {
      id: task.id,
      object: 'video',
      model: m.model,
      status,
      progress: Number.parseInt(task.progress, 10),
      created_at: Math.floor(task.submitTime / 1000),
      completed_at: status === 'completed' ? Math.floor(Date.now() / 1000) : null,
      expires_at: null,
      seconds: m.seconds,
      size: m.size,
      prompt: task.prompt,
      remixed_from_video_id: m.remixOf ?? null,
      error: status === 'failed' ? { code: 'video_generation_failed', message: 'the render failed' } : null,
    }
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      if (request.headers.get('authorization') !== `Bearer ${key}`) return Response.json({ error: { message: 'Incorrect API key', type: 'invalid_request_error' } }, { status: 401 })
      const path = new URL(request.url).pathname
      if (request.method === 'POST' && path === '/v1/videos') {
        const contentType = request.headers.get('content-type') ?? ''
        const fields: Record<string, string> = {}
        let file: { name: string; type: string; bytes: number } | undefined
        if (contentType.startsWith('multipart/form-data')) {
          for (const [name, value] of (await request.formData()).entries()) {
            if (typeof value === 'string') fields[name] = value
            else file = { name: (value as File).name, type: (value as File).type, bytes: (value as File).size }
          }
        } else for (const [name, value] of Object.entries((await request.json()) as Record<string, unknown>)) fields[name] = typeof value === 'string' ? value : JSON.stringify(value)
        submits.push({ contentType, fields, file })
        if (fields.prompt?.includes('banned')) return Response.json({ error: { message: 'Your request was blocked by our moderation system.', type: 'invalid_request_error', code: 'moderation_blocked' } }, { status: 400 })
        const task = store.add('generate', fields.prompt ?? '')
        meta.set(task.id, { model: fields.model ?? 'sora-2', seconds: fields.seconds ?? '4', size: fields.size ?? '720x1280' })
        return Response.json(view(task))
      }
      const remix = /^\/v1\/videos\/([^/]+)\/remix$/.exec(path)
      if (request.method === 'POST' && remix) {
        const source = meta.get(remix[1]!)
        if (!source) return Response.json({ error: { message: 'Video not found' } }, { status: 404 })
        const { prompt } = (await request.json()) as { prompt: string }
        const task = store.add('remix', prompt)
        meta.set(task.id, { ...source, remixOf: remix[1] })
        return Response.json(view(task))
      }
      const content = /^\/v1\/videos\/([^/]+)\/content$/.exec(path)
      if (request.method === 'GET' && content) {
        const task = store.tasks.get(content[1]!)
        if (!task || task.status !== 'SUCCESS') return Response.json({ error: { message: 'Video is not ready' } }, { status: 404 })
        const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.get('range') ?? '')
        if (range) {
          const start = Number(range[1])
          const end = range[2] ? Number(range[2]) : SORA_VIDEO.length - 1
          return new Response(SORA_VIDEO.slice(start, end + 1), { status: 206, headers: { 'content-type': 'video/mp4', 'content-range': `bytes ${start}-${end}/${SORA_VIDEO.length}`, 'accept-ranges': 'bytes' } })
        }
        return new Response(SORA_VIDEO, { headers: { 'content-type': 'video/mp4', 'accept-ranges': 'bytes' } })
      }
      const retrieve = /^\/v1\/videos\/([^/]+)$/.exec(path)
      if (request.method === 'GET' && retrieve) {
        const [task] = store.poll([retrieve[1]!])
        if (!task) return Response.json({ error: { message: 'Video not found', type: 'invalid_request_error' } }, { status: 404 })
        return Response.json(view(task))
      }
      return Response.json({ error: { message: 'no route' } }, { status: 404 })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, store, submits, stop: () => server.stop(true) }
}

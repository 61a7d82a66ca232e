import { createTaskStore } from './task-store'

/**
 * Vidu's API as documented (platform.vidu.com/docs): `Authorization: Token <key>`; `POST /ent/v2/{text2video,img2video,
 * start-end2video,reference2video}` answers `{task_id, state: "created" …}`; `GET /ent/v2/tasks/{id}/creations`
 * advances the task (task-store's script) and answers `state` processing / success (`creations[0].url`) / failed
 * (`err_code`); an unknown task is a 404.
 */
export async function startFakeVidu(key: string) {
  const store = createTaskStore('vidu')
  const bodies: Record<string, unknown>[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request): Promise<Response> {
      const path = new URL(request.url).pathname
      if (path.startsWith('/cdn/')) return new Response(new Uint8Array([9, 8, 7]), { headers: { 'content-type': 'video/mp4' } })
      if (request.headers.get('authorization') !== `Token ${key}`) return Response.json({ reason: 'Unauthorized' }, { status: 401 })
      const submit = /^\/ent\/v2\/(text2video|img2video|start-end2video|reference2video)$/.exec(path)
      if (request.method === 'POST' && submit) {
        const body = (await request.json()) as Record<string, unknown>
        bodies.push({ ...body, route: submit[1] })
        const task = store.add(submit[1]!, String(body.prompt ?? ''))
        return Response.json({ task_id: task.id, state: 'created', model: body.model, prompt: body.prompt, duration: body.duration, created_at: new Date().toISOString() })
      }
      const creations = /^\/ent\/v2\/tasks\/([^/]+)\/creations$/.exec(path)
      if (request.method === 'GET' && creations) {
        const [task] = store.poll([creations[1]!])
        if (!task) return Response.json({ reason: 'task not found' }, { status: 404 })
        const state = task.status === 'SUCCESS' ? 'success' : task.status === 'FAILURE' ? 'failed' : 'processing'
        return Response.json({ state, err_code: state === 'failed' ? 'AuditSubmitIllegal' : '', credits: 4, creations: state === 'success' ? [{ id: 'c1', url: `http://127.0.0.1:${server.port}/cdn/${task.id}.mp4`, cover_url: 'https://cdn.example/cover.jpg' }] : [] })
      }
      return Response.json({ reason: 'no route' }, { status: 404 })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, store, bodies, stop: () => server.stop(true) }
}

import { createTaskStore } from './task-store'

/**
 * A Suno API proxy as new-api relays it: `POST /suno/submit/{music,lyrics}` answer `{code: "success", data: <task id>}`,
 * `POST /suno/fetch {ids}` answers `{code: "success", data: [tasks]}` with the clips in each task's `data`. Bearer key.
 */
export async function startFakeSuno(key: string) {
  const store = createTaskStore('suno-')
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      if (request.headers.get('authorization') !== `Bearer ${key}`) return Response.json({ code: 'unauthorized', message: 'bad key', data: null }, { status: 401 })
      const path = new URL(request.url).pathname
      const submit = /^\/suno\/submit\/(music|lyrics)$/.exec(path)
      if (request.method === 'POST' && submit) {
        const body = (await request.json()) as Record<string, unknown>
        const prompt = String(body.prompt ?? body.gpt_description_prompt ?? '')
        if (prompt.includes('banned')) return Response.json({ code: 'error', message: 'prompt refused', data: null })
        return Response.json({ code: 'success', message: '', data: store.add(submit[1]!.toUpperCase(), prompt).id })
      }
      if (request.method === 'POST' && path === '/suno/fetch') {
        const { ids } = (await request.json()) as { ids: string[] }
        const data = store.poll(ids).map((task) => ({
          task_id: task.id,
          action: task.action,
          status: task.status,
          fail_reason: task.status === 'FAILURE' ? 'generation failed' : '',
          submit_time: task.submitTime,
          start_time: task.submitTime + 1,
          finish_time: task.status === 'SUCCESS' ? task.submitTime + 2 : 0,
          progress: task.progress,
          data: task.status === 'SUCCESS' ? (task.action === 'LYRICS' ? { text: `lyrics of ${task.prompt}`, title: 'song' } : [{ id: `clip-${task.id}`, audio_url: `https://cdn.example/${task.id}.mp3` }]) : null,
        }))
        return Response.json({ code: 'success', message: '', data })
      }
      return Response.json({ code: 'not_found', message: 'no route', data: null }, { status: 404 })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, store, stop: () => server.stop(true) }
}

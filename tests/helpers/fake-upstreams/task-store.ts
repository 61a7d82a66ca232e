/**
 * The task bookkeeping both task fakes share: tasks advance one step per poll that names them (so a test drives time
 * by polling, never by the clock), and every poll is recorded, so a test can count how often each task was asked.
 * A prompt's words script a task: `fail` ends it in FAILURE, `lost` makes the upstream forget it, `slow` takes 5 polls.
 */
export interface FakeTask {
  id: string
  action: string
  prompt: string
  status: string
  progress: string
  polls: number
  submitTime: number
}

export function createTaskStore(prefix: string) {
  const tasks = new Map<string, FakeTask>()
  const polled: string[][] = []
  let next = 1
  return {
    tasks,
    /** every batch poll's ids, in order */
    polled,
    add(action: string, prompt: string): FakeTask {
      const task = { id: `${prefix}${Date.now()}${next++}`, action, prompt, status: 'SUBMITTED', progress: '0%', polls: 0, submitTime: Date.now() }
      tasks.set(task.id, task)
      return task
    },
    /** the tasks a poll for `ids` finds, each advanced one step */
    poll(ids: string[]): FakeTask[] {
      polled.push(ids)
      const found: FakeTask[] = []
      for (const id of ids) {
        const task = tasks.get(id)
        if (!task || task.prompt.includes('lost')) continue
        task.polls++
        const steps = task.prompt.includes('slow') ? 5 : 2
        if (task.polls >= steps) {
          task.status = task.prompt.includes('fail') ? 'FAILURE' : 'SUCCESS'
          task.progress = '100%'
        } else {
          task.status = 'IN_PROGRESS'
          task.progress = `${Math.round((task.polls / steps) * 100)}%`
        }
        found.push(task)
      }
      return found
    },
    /** how many polls asked for `id` */
    pollsOf: (id: string) => polled.filter((ids) => ids.includes(id)).length,
  }
}

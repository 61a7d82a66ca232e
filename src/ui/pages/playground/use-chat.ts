import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from '../../api/client'
import { chatBody, type ChatSettings, type Usage } from '../../lib/chat'
import { findCharge, streamChat } from './stream'

type Charge = { state: 'pending' } | { state: 'exact'; quota: number } | { state: 'unknown' }

export interface Turn {
  id: number
  role: 'user' | 'assistant'
  content: string
  /** a question's images (data: URLs) */
  images?: readonly string[]
  /** assistant turns: the model asked, its reasoning if streamed, how it ended, usage and charge */
  model?: string
  reasoning?: string
  state?: 'streaming' | 'done' | 'stopped' | 'failed'
  usage?: Usage
  charge?: Charge
}

/** The last request as sent and the stream's events as received (the request view). */
export interface Exchange {
  body: unknown
  status?: number
  events: string[]
}

const MAX_EVENTS = 2000

export interface Chat {
  turns: readonly Turn[]
  running: boolean
  error: unknown
  exchange: Exchange | undefined
  send(settings: ChatSettings, message: string, images?: readonly string[]): void
  /** ask the last question again, in place of its answer */
  regenerate(settings: ChatSettings): void
  stop(): void
  clear(): void
}

let nextId = 1

interface Hooks {
  /** the session ended (401) */
  onUnauthorized(): void
  /** the request was refused before any answer: its question leaves the conversation, back to the composer */
  onRefused(message: string): void
}

/** The conversation: sends the history with each message, streams the answer in, then looks up its exact charge. */
export function useChat(hooks: Hooks): Chat {
  const hooksRef = useRef(hooks)
  hooksRef.current = hooks
  const [turns, setTurns] = useState<Turn[]>([])
  const [error, setError] = useState<unknown>()
  const [running, setRunning] = useState(false)
  const [exchange, setExchange] = useState<Exchange>()
  const controller = useRef<AbortController>()
  const generation = useRef(0) // bumped by Clear: late answers of a cleared conversation are dropped
  const latest = useRef(turns)
  latest.current = turns

  useEffect(() => () => controller.current?.abort(), [])

  const update = (id: number, change: (turn: Turn) => Partial<Turn>) =>
    setTurns((list) => list.map((turn) => (turn.id === id ? { ...turn, ...change(turn) } : turn)))

  /** Stream the answer to `question`, the last of `history` (the turns before it stay, anything after goes). */
  const start = useCallback(
    (settings: ChatSettings, history: Turn[], question: Turn) => {
      if (controller.current) return
      const message = question.content
      const mine = generation.current
      const abort = new AbortController()
      controller.current = abort
      const answer: Turn = { id: nextId++, role: 'assistant', content: '', model: settings.model, state: 'streaming' }
      setTurns([...history, answer])
      const body = chatBody(settings, history)
      const record: Exchange = { body, events: [] }
      setExchange(record)
      setError(undefined)
      setRunning(true)
      let requestId: string | undefined
      let received = false
      const live = () => generation.current === mine
      void (async () => {
        let ending: Turn['state'] = 'done'
        try {
          await streamChat(
            body,
            abort.signal,
            (id, status) => {
              requestId = id
              record.status = status
              if (live()) setExchange({ ...record })
            },
            (reading, raw) => {
              if (live() && record.events.length < MAX_EVENTS) {
                record.events.push(raw)
                setExchange({ ...record })
              }
              if (!live()) return
              received ||= Boolean(reading.content || reading.reasoning)
              update(answer.id, (turn) => ({
                content: turn.content + (reading.content ?? ''),
                reasoning: reading.reasoning ? (turn.reasoning ?? '') + reading.reasoning : turn.reasoning,
                usage: reading.usage ?? turn.usage,
              }))
            },
          )
        } catch (failure) {
          if (abort.signal.aborted) ending = 'stopped'
          else {
            ending = 'failed'
            if (live()) setError(failure)
            if (failure instanceof ApiError && failure.status === 401) hooksRef.current.onUnauthorized()
          }
        } finally {
          if (controller.current === abort) controller.current = undefined
          if (live()) setRunning(false)
        }
        if (!live()) return
        // a refusal leaves no answer and costs nothing: the alert says why
        const refused = ending === 'failed' && !received
        const charged = requestId !== undefined && !refused
        setTurns((list) =>
          list.flatMap((turn) => {
            if (refused && (turn.id === answer.id || turn.id === question.id)) return []
            if (turn.id !== answer.id) return [turn]
            return [{ ...turn, state: ending, charge: charged ? { state: 'pending' } : undefined }]
          }),
        )
        if (refused) hooksRef.current.onRefused(message)
        if (!charged || requestId === undefined) return
        const row = await findCharge(requestId, () => !live())
        if (!live()) return
        update(answer.id, (turn) => ({
          charge: row ? { state: 'exact', quota: row.quota } : { state: 'unknown' },
          usage: turn.usage ?? (row ? { prompt_tokens: row.prompt_tokens, completion_tokens: row.completion_tokens } : undefined),
        }))
      })()
    },
    [],
  )

  const send = useCallback(
    (settings: ChatSettings, message: string, images: readonly string[] = []) => {
      const question: Turn = { id: nextId++, role: 'user', content: message, ...(images.length ? { images } : {}) }
      start(settings, [...latest.current, question], question)
    },
    [start],
  )
  const regenerate = useCallback(
    (settings: ChatSettings) => {
      const list = latest.current
      const at = list.map((turn) => turn.role).lastIndexOf('user')
      if (at >= 0) start(settings, list.slice(0, at + 1), list[at]!)
    },
    [start],
  )

  const stop = useCallback(() => controller.current?.abort(), [])
  const clear = useCallback(() => {
    generation.current++
    controller.current?.abort()
    controller.current = undefined
    setRunning(false)
    setTurns([])
    setError(undefined)
    setExchange(undefined)
  }, [])

  return { turns, running, error, exchange, send, regenerate, stop, clear }
}

import { createLocalLimits } from './local-limits'
import { createLocalLogin } from './local-login'
import { createLocalWindows } from './local-windows'
import type { TopicHandler } from './types'

export interface Subscriber {
  instanceId: string
  handler: TopicHandler
}

/**
 * What one node keeps in memory for `local.ts`: limits, login counters, event windows, topics, job leases, registered nodes and
 * channel failure counts. In production each process has its own; tests hand one store to several instances,
 * which then behave as nodes sharing it (the same behavioural suite runs against Redis). `clock` in ms.
 */
export function createLocalStore(clock: () => number = () => performance.now()) {
  const topics = new Map<string, { version: number; subscribers: Set<Subscriber> }>()
  const topic = (name: string) => {
    let t = topics.get(name)
    if (!t) topics.set(name, (t = { version: 0, subscribers: new Set() }))
    return t
  }
  return {
    clock,
    limits: createLocalLimits(clock),
    login: createLocalLogin(clock),
    windows: createLocalWindows(clock),
    /** Deliver to every subscriber of `name`, after the caller's turn (as a message from Redis would arrive). */
    publish(instanceId: string, name: string, payload: string | null): void {
      const t = topic(name)
      t.version++
      for (const s of t.subscribers) {
        const event = { topic: name, payload, fromSelf: s.instanceId === instanceId }
        queueMicrotask(() => {
          try {
            s.handler(event)
          } catch (error) {
            console.error(`coordination: a handler of ${name} failed:`, error)
          }
        })
      }
    },
    subscribe(name: string, subscriber: Subscriber): () => void {
      const t = topic(name)
      t.subscribers.add(subscriber)
      return () => void t.subscribers.delete(subscriber)
    },
    version: (name: string): number => topics.get(name)?.version ?? 0,
    leases: new Map<string, { owner: string; expiresAt: number }>(),
    nodes: new Map<string, number>(),
    failures: new Map<number, number>(),
  }
}

export type LocalStore = ReturnType<typeof createLocalStore>

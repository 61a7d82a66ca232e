import type { TopicEvent, TopicHandler } from '../types'
import type { RedisLink } from './link'
import { PUBLISH } from './scripts'

interface Topic {
  handlers: Set<TopicHandler>
  /** the last version delivered or checked; undefined until the first check */
  seen: number | undefined
}

/**
 * Cache invalidation over Redis pub/sub, with a version counter per topic as the safety net: PUBLISH bumps the
 * topic's version and sends `<version>|<instance>|<payload>` in one script, and `check()` (every 500 ms) reads
 * every subscribed topic's version in one MGET: a version the messages did not bring means one was missed, and
 * the handlers get payload null (reload it all). While Redis is away, a publish reaches this node's handlers
 * only; the topic is bumped once Redis is back, and every topic's handlers get a payload-null event then.
 */
export function createRedisTopics(link: RedisLink, prefix: string, instanceId: string) {
  const topics = new Map<string, Topic>()
  const dirty = new Set<string>()
  const channelPrefix = `${prefix}topic:`
  const versionKey = (topic: string) => `${prefix}ver:${topic}`

  function deliver(name: string, topic: Topic, event: TopicEvent): void {
    for (const handler of topic.handlers) {
      try {
        handler(event)
      } catch (error) {
        console.error(`coordination: a handler of ${name} failed:`, error)
      }
    }
  }

  /** A message from the subscriber connection. */
  function onMessage(channel: string, message: string): void {
    if (!channel.startsWith(channelPrefix)) return
    const name = channel.slice(channelPrefix.length)
    const topic = topics.get(name)
    const bar = message.indexOf('|')
    const bar2 = message.indexOf('|', bar + 1)
    if (!topic || bar < 0 || bar2 < 0) return
    const version = Number(message.slice(0, bar))
    if (version === topic.seen) return // the version check delivered it already
    topic.seen = version
    const body = message.slice(bar2 + 1)
    deliver(name, topic, { topic: name, payload: body === '-' ? null : body.slice(1), fromSelf: message.slice(bar + 1, bar2) === instanceId })
  }

  async function check(): Promise<void> {
    const names = [...topics.keys()]
    if (names.length === 0 || !link.up) return
    const versions = (await link.send('MGET', names.map(versionKey))) as (string | null)[]
    names.forEach((name, i) => {
      const topic = topics.get(name)
      const version = Number(versions[i] ?? 0)
      if (!topic || version === topic.seen) return
      const missed = topic.seen !== undefined
      topic.seen = version
      if (missed) deliver(name, topic, { topic: name, payload: null, fromSelf: false })
    })
  }

  async function publish(name: string, payload?: string): Promise<void> {
    const body = payload === undefined ? '-' : `+${payload}`
    try {
      await link.eval(PUBLISH, [versionKey(name)], [channelPrefix + name, `${instanceId}|${body}`])
    } catch {
      dirty.add(name)
      const topic = topics.get(name)
      if (topic) queueMicrotask(() => deliver(name, topic, { topic: name, payload: payload ?? null, fromSelf: true }))
    }
  }

  async function subscribe(name: string, handler: TopicHandler): Promise<() => void> {
    let topic = topics.get(name)
    if (!topic) {
      topics.set(name, (topic = { handlers: new Set(), seen: undefined }))
      await link.listen(channelPrefix + name)
      const version = link.up ? await link.send('GET', [versionKey(name)]).catch(() => undefined) : undefined
      if (version !== undefined) topic.seen = Number(version ?? 0)
    }
    const t = topic
    t.handlers.add(handler)
    return () => {
      t.handlers.delete(handler)
      if (t.handlers.size > 0 || topics.get(name) !== t) return
      topics.delete(name)
      link.unlisten(channelPrefix + name)
    }
  }

  /** Redis is back: what this node wrote meanwhile reaches the others, and every topic is reloaded here. */
  async function recovered(): Promise<void> {
    for (const name of [...dirty]) {
      dirty.delete(name)
      await publish(name)
    }
    for (const [name, topic] of topics) {
      topic.seen = undefined
      deliver(name, topic, { topic: name, payload: null, fromSelf: false })
    }
    await check().catch(() => {})
  }

  return { onMessage, check, publish, subscribe, recovered, size: () => topics.size }
}

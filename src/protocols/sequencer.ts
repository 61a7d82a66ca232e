import type { StreamEvent } from '../ir/index.ts'

type BlockEvent = Extract<StreamEvent, { id: string }>

interface Pending {
  id: string
  kind: 'text' | 'reasoning' | 'tool'
  buffered: StreamEvent[]
  ended: boolean
}

const START: Record<string, true> = { 'text-start': true, 'reasoning-start': true, 'tool-input-start': true }
const END: Record<string, true> = { 'text-end': true, 'reasoning-end': true, 'tool-input-end': true }

/**
 * Serialises blocks for protocols whose streams can hold one open block at a time (Anthropic content blocks,
 * Responses output items). Events of the block that opened first pass straight through; events of blocks that
 * open while another is still open wait, and are released (in order) as soon as the earlier block ends.
 * Sequential input — the normal case — is never delayed.
 */
export class BlockSequencer {
  private queue: Pending[] = []
  private byId = new Map<string, Pending>()

  push(ev: StreamEvent): StreamEvent[] {
    if (ev.type === 'finish' || ev.type === 'error') return [...this.flush(), ev]
    if (!('id' in ev) || ev.type === 'start') return [ev]
    const bev = ev as BlockEvent
    let p = this.byId.get(bev.id)
    const out: StreamEvent[] = []
    if (!p) {
      p = { id: bev.id, kind: kindOf(bev.type), buffered: [], ended: false }
      this.byId.set(bev.id, p)
      this.queue.push(p)
      if (!START[bev.type]) p.buffered.push(implicitStart(bev))
    } else if (START[bev.type]) return []
    if (p.ended) return []
    if (END[bev.type]) p.ended = true
    if (this.queue[0] === p) {
      if (p.buffered.length) {
        out.push(...p.buffered)
        p.buffered = []
      }
      out.push(ev)
      if (p.ended) {
        this.queue.shift()
        out.push(...this.drain())
      }
    } else p.buffered.push(ev)
    return out
  }

  /** Releases everything buffered, closing blocks that never ended. */
  flush(): StreamEvent[] {
    const out: StreamEvent[] = []
    for (const p of this.queue) {
      out.push(...p.buffered)
      if (!p.ended) out.push(implicitEnd(p))
    }
    this.queue = []
    return out
  }

  private drain(): StreamEvent[] {
    const out: StreamEvent[] = []
    while (this.queue.length) {
      const p = this.queue[0]!
      out.push(...p.buffered)
      p.buffered = []
      if (!p.ended) break
      this.queue.shift()
    }
    return out
  }
}

function implicitStart(ev: BlockEvent): StreamEvent {
  if (ev.type.startsWith('text')) return { type: 'text-start', id: ev.id }
  if (ev.type.startsWith('reasoning')) return { type: 'reasoning-start', id: ev.id }
  return { type: 'tool-input-start', id: ev.id, name: '', index: -1 }
}

function kindOf(type: string): Pending['kind'] {
  return type.startsWith('text') ? 'text' : type.startsWith('reasoning') ? 'reasoning' : 'tool'
}

function implicitEnd(p: Pending): StreamEvent {
  if (p.kind === 'reasoning') return { type: 'reasoning-end', id: p.id }
  if (p.kind === 'tool') return { type: 'tool-input-end', id: p.id }
  return { type: 'text-end', id: p.id }
}

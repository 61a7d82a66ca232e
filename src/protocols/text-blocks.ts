import type { FinishReason, StreamEvent, Usage } from '../ir/index.ts'

const STOP: FinishReason = { unified: 'stop' }

/**
 * The blocks of an upstream that streams plain text and reasoning deltas (Dify, Coze, Spark): a block opens on its
 * first delta and closes when the other kind starts; the answer ends once, with the usage it was told.
 */
export class TextBlocks {
  private open: 'text' | 'reasoning' | undefined
  done = false
  usage: Usage | undefined

  delta(kind: 'text' | 'reasoning', delta: string, out: StreamEvent[]): void {
    if (delta === '') return
    if (this.open !== kind) {
      this.close(out)
      this.open = kind
      out.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', id: `${kind}-0` })
    }
    out.push({ type: kind === 'text' ? 'text-delta' : 'reasoning-delta', id: `${kind}-0`, delta })
  }

  finish(out: StreamEvent[]): void {
    this.close(out)
    this.done = true
    out.push({ type: 'finish', reason: STOP, ...(this.usage ? { usage: this.usage } : {}) })
  }

  private close(out: StreamEvent[]): void {
    if (this.open) out.push({ type: this.open === 'text' ? 'text-end' : 'reasoning-end', id: `${this.open}-0` })
    this.open = undefined
  }
}

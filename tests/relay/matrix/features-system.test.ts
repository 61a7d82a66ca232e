/**
 * Request features × every client × every upstream × {non-stream, stream}: system prompts (top-level system,
 * instructions, systemInstruction), multi-turn text, and a system turn in the middle of the conversation
 * (Anthropic `role:"system"` in messages as Claude Code sends it, chat `system`, Responses `developer`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { ProtocolId } from '../../../src/protocols/types'
import type { RelayEnv } from '../../helpers/relay-env'
import { ask, FINISH, PAIRS, sentTo, settled, type Spec } from './features-kit'
import { startMatrixEnv, UPSTREAMS } from './harness'

let env: RelayEnv
beforeAll(async () => {
  env = await startMatrixEnv()
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
  env.upstream.setBehavior({ text: 'Noted.' })
})

const SYSTEM = 'You are terse. Answer in French.'
const MID = 'From now on, answer in German.'
const CONVERSATION: Spec['messages'] = [
  { role: 'user', text: 'Hello there.' },
  { role: 'assistant', text: 'Bonjour.' },
  { role: 'user', text: 'How are you?' },
]

type Turn = { role: string; text: string }
const textOf = (content: any): string =>
  typeof content === 'string' ? content : (content ?? []).map((c: any) => (typeof c.text === 'string' ? c.text : '')).join('\n')

/** The upstream's top-level system text and its conversation as role + text, in the vendor's own fields. */
function view(protocol: ProtocolId, b: any): { system: string | undefined; turns: Turn[] } {
  switch (protocol) {
    case 'anthropic':
      return { system: b.system === undefined ? undefined : textOf(b.system), turns: b.messages.map((m: any) => ({ role: m.role, text: textOf(m.content) })) }
    case 'openai-chat': {
      const lead = b.messages[0]?.role === 'system' || b.messages[0]?.role === 'developer' ? b.messages[0] : undefined
      return { system: lead && textOf(lead.content), turns: b.messages.slice(lead ? 1 : 0).map((m: any) => ({ role: m.role, text: textOf(m.content) })) }
    }
    case 'openai-responses':
      return { system: b.instructions, turns: b.input.map((i: any) => ({ role: i.role, text: textOf(i.content) })) }
    case 'gemini':
      return { system: b.systemInstruction && textOf(b.systemInstruction.parts), turns: b.contents.map((c: any) => ({ role: c.role, text: textOf(c.parts) })) }
  }
}

const ASSISTANT: Record<ProtocolId, string> = { anthropic: 'assistant', 'openai-chat': 'assistant', 'openai-responses': 'assistant', gemini: 'model' }

describe.each(UPSTREAMS)('→ $protocol upstream', (up) => {
  describe.each(PAIRS)('$client client, stream: $stream', ({ client, stream }) => {
    test('top-level system prompt in the vendor field, multi-turn text in order, answer and stop reason back', async () => {
      const a = await ask(env, client, up.model, { system: SYSTEM, messages: CONVERSATION }, stream)
      expect(a.status).toBe(200)
      expect(a.text).toBe('Noted.')
      expect(a.finish).toBe(FINISH[client].stop)
      const sent = sentTo(env, up.protocol)
      expect(sent.path).toBe(up.path(stream))
      const v = view(up.protocol, sent.json)
      expect(v.system).toBe(SYSTEM)
      expect(v.turns).toEqual([
        { role: 'user', text: 'Hello there.' },
        { role: ASSISTANT[up.protocol], text: 'Bonjour.' },
        { role: 'user', text: 'How are you?' },
      ])
    })

    // Gemini has no system turn inside contents: only the three others can send one.
    test.skipIf(client === 'gemini')('a system turn mid-conversation stays a system instruction at its place, never an upstream 400', async () => {
      const messages: Spec['messages'] = [...CONVERSATION.slice(0, 2), { role: 'system', text: MID }, CONVERSATION[2]!]
      const a = await ask(env, client, up.model, { system: SYSTEM, messages }, stream)
      expect(a.status).toBe(200)
      expect(a.text).toBe('Noted.')
      const b = sentTo(env, up.protocol).json
      const v = view(up.protocol, b)
      expect(v.system).toBe(SYSTEM)
      expect(v.turns.slice(0, 2)).toEqual([{ role: 'user', text: 'Hello there.' }, { role: ASSISTANT[up.protocol], text: 'Bonjour.' }])
      const warnings = await settled(env)
      switch (up.protocol) {
        case 'anthropic':
          if (client === 'anthropic') {
            // Claude Code's own request, passed through with its mid-conversation-system beta
            expect(v.turns.slice(2)).toEqual([{ role: 'system', text: MID }, { role: 'user', text: 'How are you?' }])
            expect(sentTo(env, up.protocol).headers['anthropic-beta']).toContain('mid-conversation-system')
          } else {
            // without the beta the API refuses role system in messages: a tagged reminder in the next user turn
            expect(b.messages.every((m: any) => m.role !== 'system')).toBe(true)
            expect(v.turns.slice(2)).toEqual([{ role: 'user', text: `<system-reminder>\n${MID}\n</system-reminder>\nHow are you?` }])
            expect(warnings.join()).toContain('mid-conversation system message')
          }
          break
        case 'openai-chat':
          expect(v.turns.slice(2)).toEqual([{ role: expect.stringMatching(/^(system|developer)$/), text: MID }, { role: 'user', text: 'How are you?' }])
          break
        case 'openai-responses':
          expect(v.turns.slice(2)).toEqual([{ role: expect.stringMatching(/^(system|developer)$/), text: MID }, { role: 'user', text: 'How are you?' }])
          expect(b.input[2].type).toBe('message')
          break
        case 'gemini':
          // no system turns in contents: the instruction reaches the model as user text at its place
          expect(v.turns.slice(2)).toEqual([{ role: 'user', text: expect.stringContaining(MID) }])
          expect(v.turns[2]!.text).toContain('How are you?')
          expect(warnings.join()).toContain('mid-conversation system message')
          break
      }
    })
  })
})

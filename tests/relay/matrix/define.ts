/**
 * The matrix for one client protocol: × every upstream protocol × {text, tool round trip, reasoning} ×
 * {non-stream, stream}, through the official SDK of that client. The fakes validate every upstream request
 * as their vendor would (a 400 there fails the test through the SDK), and record it for the checks here.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { ProtocolId } from '../../../src/protocols/types'
import { matrixClient, type MatrixClient } from './clients'
import { AFTER_TOOLS, ALL_UPSTREAMS, CALLS, clientUsage, expectedUsage, REASONING, recordingOf, resetFakes, scenario, SIGNATURE, startMatrixEnv, TEXT, USAGE, wireOf, type MatrixEnv } from './harness'
import type { Wire } from './vendors'
import { until } from '../../helpers/wait'

const RESULTS = ['{"sky":"clear","celsius":21}', '{"time":"09:00"}']

export function defineMatrix(client: ProtocolId): void {
  let env: MatrixEnv
  let sdk: MatrixClient

  beforeAll(async () => {
    env = await startMatrixEnv()
    sdk = matrixClient(client, env.app.url, env.key)
  })
  afterAll(() => env.stop())
  beforeEach(() => {
    resetFakes(env)
    env.outcomes.length = 0
  })

  describe.each(ALL_UPSTREAMS)(`${client} client → $protocol upstream`, (up) => {
    const wire = wireOf(up)
    const fake = () => recordingOf(env, up)
    describe.each([false, true])('stream: %p', (stream) => {
      const checkUpstream = (index: number) => {
        const sent = fake().requests[index]!
        expect(sent.protocol).toBe(wire)
        expect(sent.path).toBe(up.path(stream))
        expect(sent.completed).toBe(true)
        return sent
      }

      test('text: content, stop reason, usage in the client fields and in the settled outcome', async () => {
        fake().setBehavior(scenario('text'))
        const turn = await sdk.ask(up.model, stream, 'text')
        expect(turn.text).toBe(TEXT)
        expect(turn.calls).toEqual([])
        expect(turn.finish).toBe(sdk.finish.stop)
        expect(turn.usage).toEqual(clientUsage(client, expectedUsage(wire, 'text')))
        checkUpstream(0)
        expect(fake().requests).toHaveLength(1)
        await waitForOutcome(env)
        expect(env.outcomes[0]!.usage).toEqual(expectedUsage(wire, 'text'))
      })

      test('tool round trip: two parallel calls with names and arguments, tool stop reason, results reach the upstream', async () => {
        fake().setBehavior([scenario('tool'), { text: AFTER_TOOLS, usage: { ...USAGE, reasoning: 0 } }])
        const first = await sdk.ask(up.model, stream, 'tool')
        expect(first.calls.map((c) => ({ name: c.name, arguments: c.args }))).toEqual(CALLS)
        expect(first.finish).toBe(sdk.finish.tool)
        expect(first.text).toBe('')
        const sentTools = JSON.stringify(checkUpstream(0).json)
        for (const name of ['get_weather', 'get_time']) expect(sentTools).toContain(name)

        const second = await sdk.answer(up.model, stream, first, RESULTS)
        expect(second.text).toBe(AFTER_TOOLS)
        expect(second.finish).toBe(sdk.finish.stop)
        const replay = checkUpstream(1)
        // the results arrive as the vendor's own tool-result items, paired with the calls
        expect(toolResults(wire, replay.json)).toEqual(RESULTS.map((r) => expect.stringContaining(JSON.parse(r).sky ?? JSON.parse(r).time)))
        expect(replay.body).toContain('get_weather')
      })

      test('reasoning: the reasoning text reaches the client, reasoning tokens land in the right field', async () => {
        fake().setBehavior(scenario('reasoning'))
        const turn = await sdk.ask(up.model, stream, 'reasoning')
        expect(turn.reasoning).toBe(REASONING)
        expect(turn.text).toBe('The answer is 42.')
        expect(turn.finish).toBe(sdk.finish.stop)
        expect(turn.usage).toEqual(clientUsage(client, expectedUsage(wire, 'reasoning')))
        checkUpstream(0)
        await waitForOutcome(env)
        expect(env.outcomes[0]!.usage).toEqual(expectedUsage(wire, 'reasoning'))
      })

      test('reasoning replay: the signature goes back to its own vendor when the client can carry it, never an envelope or an empty one', async () => {
        fake().setBehavior([scenario('reasoning'), { text: 'Done.', usage: USAGE }])
        const first = await sdk.ask(up.model, stream, 'reasoning')
        const second = await sdk.answer(up.model, stream, first, [], 'reasoning')
        expect(second.text).toBe('Done.')
        const replay = checkUpstream(1)
        expect(replay.body).not.toContain('tollgate.1.')
        expect(replay.body).not.toMatch(/"(signature|thoughtSignature|encrypted_content)":""/)
        if (carriesSignature(client, wire)) expect(replay.body).toContain(SIGNATURE)
      })
    })
  })
}

/**
 * Whether the upstream's opaque reasoning survives a round trip through this client: Anthropic thinking
 * signatures, Responses encrypted_content and Gemini thought signatures can carry any vendor's (in an envelope),
 * chat has no field for it. Gemini signs the answer part, not the thought, so only a Gemini client keeps it.
 */
function carriesSignature(client: ProtocolId, upstream: Wire): boolean {
  if (upstream === 'openai-chat') return false
  if (upstream === 'gemini') return client === 'gemini'
  return client !== 'openai-chat'
}

/** Streams settle when the body is fully read, which the SDK may finish a moment before the pipe does. */
async function waitForOutcome(env: MatrixEnv): Promise<void> {
  await until(() => env.outcomes.length > 0, { what: 'the settled outcome' })
}

/** The tool-result payloads of a replayed conversation, in each vendor's own items, as text. */
function toolResults(protocol: Wire, body: any): string[] {
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v))
  switch (protocol) {
    case 'anthropic':
      return body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).filter((b: any) => b.type === 'tool_result').map((b: any) => text(b.content))
    case 'openai-chat':
      return body.messages.filter((m: any) => m.role === 'tool').map((m: any) => text(m.content))
    case 'openai-responses':
      return body.input.filter((i: any) => i.type === 'function_call_output').map((i: any) => text(i.output))
    case 'gemini':
      return body.contents.flatMap((c: any) => c.parts).filter((p: any) => p.functionResponse).map((p: any) => text(p.functionResponse.response))
    case 'bedrock-converse':
      return body.messages.flatMap((m: any) => m.content).filter((b: any) => b.toolResult).map((b: any) => text(b.toolResult.content))
  }
  return []
}

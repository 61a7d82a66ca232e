import { expect, test } from 'bun:test'
import { join } from 'node:path'

/**
 * The client SDK matrix and the request-feature matrix again, in a second `bun test`, with every chat body on the
 * large bodies' path and every string its client protocol lets the relay splice cut to nothing
 * (tests/helpers/force-splicing.ts): each vendor must receive what a body parsed whole gives it, each client the
 * same answer. A converter that reads a cut text where it needs the whole one fails one of those tests.
 */
const ROOT = join(import.meta.dir, '../../..')
const FILES = ['client-anthropic', 'client-openai-chat', 'client-openai-responses', 'client-gemini', 'features-media', 'features-output', 'features-system', 'features-tools', 'features-vendors']

test('the matrices pass with every converted body spliced', async () => {
  // the runner's per-test timeout, not bun's 5 s default: under load a matrix's beforeAll took 5–8 s
  const proc = Bun.spawn(['bun', 'test', '--timeout', '20000', '--preload', './tests/helpers/force-splicing.ts', ...FILES.map((f) => `./tests/relay/matrix/${f}.test.ts`)], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  const failures = err.split('\n').filter((line) => line.startsWith('(fail)'))
  expect(failures, err.slice(-3000)).toEqual([])
  expect(code).toBe(0)
  expect(Number(/(\d+) pass/.exec(err)?.[1])).toBeGreaterThan(900)
  // the cut path was taken toward every upstream protocol
  const cut = JSON.parse(/encoded cut: (\{.*\})/.exec(out)?.[1] ?? '{}') as Record<string, number>
  for (const protocol of ['anthropic', 'openai-chat', 'openai-responses', 'gemini', 'bedrock-converse']) expect(cut[protocol] ?? 0, protocol).toBeGreaterThan(10)
}, 600_000) // a hang detector: about 15 s on a quiet machine, past 240 s in a full run on a machine loaded 15 times over

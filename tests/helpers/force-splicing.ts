/**
 * A test preload (`bun test --preload ./tests/helpers/force-splicing.ts …`, see tests/relay/matrix/spliced.test.ts):
 * every chat body takes the large bodies' path (relay/body/request-body.ts: scanned, only top-level values up to 64
 * bytes parsed before dispatch), and on conversion every string under a splice path is cut to nothing
 * (relay/body/spliced-body.ts), so a converter that reads a text it was handed cut shows up as a wrong upstream body.
 * Every passthrough body is sent as a shared Blob and let go of while the upstream answers, so a step that reads
 * the bytes after dispatch without reading them back fails.
 * Prints how many requests each upstream protocol encoded cut, so the caller knows the path was taken.
 */
import { afterAll } from 'bun:test'
import { isSpliced, type IrRequest } from '../../src/ir'
import { protocols } from '../../src/protocols'
import { bedrockConverse } from '../../src/protocols/bedrock-converse'
import type { UpstreamProtocol } from '../../src/protocols/types'
import { bodyLimits } from '../../src/relay/body/request-body'
import { spliceLimits } from '../../src/relay/body/splice-paths'

Object.assign(bodyLimits, { wholeBytes: 0, standInBytes: 64, sharedSendBytes: 0 })
Object.assign(spliceLimits, { minBytes: 1, prefixBytes: 0 })

const cut: Record<string, number> = {}
for (const protocol of [...Object.values(protocols), bedrockConverse] as UpstreamProtocol[]) {
  const encode = protocol.encodeRequest
  protocol.encodeRequest = (req: IrRequest) => {
    if (isSpliced(JSON.stringify([req.system, req.messages]))) cut[protocol.id] = (cut[protocol.id] ?? 0) + 1
    return encode(req)
  }
}
afterAll(() => console.log(`encoded cut: ${JSON.stringify(cut)}`))

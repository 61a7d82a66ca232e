import type { PriceChoices, Protocol } from '../../protocols/types'
import { joinedPieces } from '../body/pieces'
import { scanJson } from '../body/json-scan'
import { bodyLimits, scannedBody, watchOf, wholeBody, type RequestBody } from '../body/request-body'

/**
 * The client's request without the price choices metering declined (metering/price-terms.ts): a service tier,
 * hosted tools and beta flags no option prices are taken out before dispatch, so the vendor bills only what was
 * reserved. What was taken out is said in the warnings (the log row's `other.warnings`).
 */
export function withoutDeclined<I extends { headers: Headers; body: RequestBody }>(client: Protocol, input: I, declined: PriceChoices): { input: I; warnings: string[] } {
  const warnings: string[] = []
  const patch: Record<string, unknown> = {}
  const member = (key: string) => input.body.member(key)
  if (declined.serviceTier !== undefined) {
    patch.service_tier = undefined
    warnings.push(`service_tier "${declined.serviceTier.slice(0, 40)}" is not priced here (ServiceTierRatio): removed, the vendor's default tier serves`)
  }
  let headers = input.headers
  if (declined.betas?.length) {
    const out = new Set(declined.betas)
    headers = withoutBetas(headers, out)
    const inBody = member('anthropic_beta')
    if (Array.isArray(inBody)) patch.anthropic_beta = nonEmpty(inBody.filter((b) => !out.has(b)))
    warnings.push(`anthropic-beta ${declined.betas.join(', ')}: not priced here (AnthropicBetaRatio), removed`)
  }
  if (declined.hostedTools?.length) {
    Object.assign(patch, withoutTools(member, declined.hostedTools))
    warnings.push(`${declined.hostedTools.map((t) => `${t.field} (${t.kind})`).join(', ')}: billed per use and not priced here (HostedToolPrice), removed`)
  }
  const body = Object.keys(patch).length ? patchedBody(client, input.body, patch) : input.body
  return { input: { ...input, headers, body }, warnings }
}

const nonEmpty = <T,>(items: T[]): T[] | undefined => (items.length ? items : undefined)

function withoutBetas(headers: Headers, out: Set<string>): Headers {
  const copy = new Headers(headers)
  const kept = (headers.get('anthropic-beta') ?? '').split(',').map((b) => b.trim()).filter((b) => b !== '' && !out.has(b))
  if (kept.length) copy.set('anthropic-beta', kept.join(','))
  else copy.delete('anthropic-beta')
  return copy
}

/** The members that held the tools, without them: `web_search_options`, `tools[i]` items, `tools[i].googleSearch` keys. */
function withoutTools(member: (key: string) => unknown, tools: NonNullable<PriceChoices['hostedTools']>): Record<string, unknown> {
  const patch: Record<string, unknown> = {}
  const list = member('tools')
  const items: unknown[] = Array.isArray(list) ? list.map((item) => (typeof item === 'object' && item !== null ? { ...item } : item)) : []
  const dropped = new Set<number>()
  let touched = false
  for (const { field } of tools) {
    const at = /^tools\[(\d+)\](?:\.(.+))?$/.exec(field)
    if (!at) {
      patch[field] = undefined
      continue
    }
    touched = true
    const index = Number(at[1])
    const item = items[index] as Record<string, unknown>
    if (at[2] === undefined) dropped.add(index)
    else {
      delete item[at[2]]
      if (Object.keys(item).length === 0) dropped.add(index)
    }
  }
  if (touched) patch.tools = nonEmpty(items.filter((_, i) => !dropped.has(i)))
  return patch
}

/**
 * The body with `patch` applied: a member set to a value is replaced in the client's bytes (json-scan's last
 * occurrence, the one JSON.parse keeps); one set to undefined is removed, from the body parsed and written again.
 */
function patchedBody(client: Protocol, body: RequestBody, patch: Record<string, unknown>): RequestBody {
  const removes = Object.values(patch).some((value) => value === undefined)
  const pieces = removes ? undefined : body.patched(patch)
  const bytes = pieces ? joinedPieces(pieces) : encoder.encode(JSON.stringify({ ...body.parsed(), ...patch }))
  const watch = watchOf(client)
  if (bytes.length <= bodyLimits.wholeBytes) return wholeBody(bytes, JSON.parse(decoder.decode(bytes)) as Record<string, unknown>, watch)
  return scannedBody(bytes, scanJson(bytes, watch))
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

import { InvalidWireError } from '../ir/index.ts'
import type { PriceChoices } from './types.ts'

/**
 * Reading the price choices of a client body (PriceChoices): the shared pieces. A hosted tool's kind is the name
 * its price is set under (HostedToolPrice); tools billed only by their tokens have none.
 */

/** Tool types billed by their tokens alone (the client's own functions, local tools, fetch and editors). */
const TOKEN_BILLED = [
  /^(function|custom|namespace|mcp|mcp_toolset|local_shell|shell|apply_patch)$/,
  /^computer(_use)?(_preview)?(_\d+)?$/,
  /^(bash|text_editor|memory|web_fetch)_\d+$/,
  /^tool_search_tool_(regex|bm25)(_\d+)?$/,
]

/** The price key of a hosted tool's wire type; undefined when its tokens are all it costs. Unknown types are their own key. */
export function hostedToolKind(type: string): string | undefined {
  if (TOKEN_BILLED.some((pattern) => pattern.test(type))) return undefined
  if (/^web_search/.test(type) || /^(google_search(_retrieval)?|enterprise_web_search)$/.test(type)) return 'web_search'
  if (/^code_execution_\d+$/.test(type)) return 'code_execution'
  return type
}

/** A positive integer count of outputs, or undefined when the field is absent (null counts as absent, as the APIs read it). */
export function outputCount(value: unknown, field: string): PriceChoices['choices'] {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new InvalidWireError(`${field} must be a positive integer`, field)
  return { count: value, field }
}

export function optionalText(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new InvalidWireError(`${field} must be a string`, field)
  return value
}

/** The hosted tools of a `tools` array whose items name their `type` (Chat, Responses, Messages). */
export function typedHostedTools(tools: unknown, defaultType: string): { kind: string; field: string }[] {
  if (!Array.isArray(tools)) return []
  const out: { kind: string; field: string }[] = []
  tools.forEach((tool, i) => {
    const type = typeof tool === 'object' && tool !== null && typeof (tool as { type?: unknown }).type === 'string' ? (tool as { type: string }).type : defaultType
    const kind = hostedToolKind(type)
    if (kind) out.push({ kind, field: `tools[${i}]` })
  })
  return out
}

/** Only the choices that were made (an empty object when none). */
export function made(choices: PriceChoices): PriceChoices {
  const out: PriceChoices = {}
  if (choices.choices) out.choices = choices.choices
  if (choices.serviceTier !== undefined) out.serviceTier = choices.serviceTier
  if (choices.hostedTools?.length) out.hostedTools = choices.hostedTools
  if (choices.betas?.length) out.betas = choices.betas
  if (choices.byReference?.length) out.byReference = choices.byReference
  if (choices.maxOutput !== undefined) out.maxOutput = choices.maxOutput
  return out
}

import type { ChannelPatch } from '../../db/repos/channels'
import { GatewayError } from '../../errors'
import { OverrideError } from '../../relay/overrides/param-override'
import { storedOverride } from '../../relay/overrides/channel-overrides'
import { maskedProxy, parseProxy, unmaskedProxy } from '../../relay/overrides/proxy-url'

interface OverrideInput {
  param_override?: unknown
  header_override?: unknown
  status_code_mapping?: unknown
}

const COLUMN = { param_override: 'paramOverride', header_override: 'headerOverride', status_code_mapping: 'statusCodeMapping' } as const

/** A bad override: 400 `invalid_override` naming the field, with why. */
function invalid(field: string, error: unknown): never {
  if (!(error instanceof OverrideError)) throw error
  throw new GatewayError(400, 'invalid_override', `${field} ${error.message}`, field)
}

/** new-api's override columns, checked (the relay reads them as they are stored). */
export function overridePatch(input: OverrideInput, patch: ChannelPatch): void {
  for (const field of Object.keys(COLUMN) as (keyof typeof COLUMN)[]) {
    if (input[field] === undefined) continue
    try {
      patch[COLUMN[field]] = storedOverride(field, input[field])
    } catch (error) {
      invalid(field, error)
    }
  }
}

/**
 * The override fields new-api keeps in `setting`: `proxy` (a URL; sent back masked, the stored password stays),
 * `system_prompt` (text) and `system_prompt_override` (a boolean).
 */
export function checkedSetting(setting: Record<string, unknown>, stored: Record<string, unknown>): Record<string, unknown> {
  const out = { ...setting }
  if (typeof out.proxy === 'string' && out.proxy.trim()) {
    const sent = unmaskedProxy(out.proxy.trim(), typeof stored.proxy === 'string' ? stored.proxy : undefined)
    try {
      out.proxy = parseProxy(sent)
    } catch (error) {
      invalid('setting.proxy', error)
    }
  } else if (out.proxy !== undefined && out.proxy !== null && out.proxy !== '') invalid('setting.proxy', new OverrideError('must be a URL'))
  if (out.system_prompt !== undefined && (typeof out.system_prompt !== 'string' || out.system_prompt.length > 100_000)) {
    invalid('setting.system_prompt', new OverrideError('must be text of at most 100000 characters'))
  }
  if (out.system_prompt_override !== undefined && typeof out.system_prompt_override !== 'boolean') invalid('setting.system_prompt_override', new OverrideError('must be true or false'))
  return out
}

/** `setting` as the API shows it: the proxy's password masked. */
export function settingView(text: string): string {
  if (!text.includes('proxy')) return text
  try {
    const setting = JSON.parse(text) as Record<string, unknown>
    if (typeof setting.proxy !== 'string') return text
    return JSON.stringify({ ...setting, proxy: maskedProxy(setting.proxy) })
  } catch {
    return text
  }
}

import { OverrideError } from '../relay/overrides/param-override'
import { storedOverride, type OVERRIDE_FIELDS } from '../relay/overrides/channel-overrides'
import { parseProxy } from '../relay/overrides/proxy-url'
import type { MapContext } from './map-common'
import type { SourceRow } from './read-source'
import { jsonObject, text } from './values'

/** The channel fields new-api keeps in `setting` that Tollgate reads (relay/overrides): not reported as dropped. */
export const MAPPED_SETTING_FIELDS = new Set(['proxy', 'system_prompt', 'system_prompt_override'])

/**
 * new-api's overrides as Tollgate stores them: `param_override`, `header_override`, `status_code_mapping` checked as
 * the channel API checks them (a value it would refuse is dropped and reported), and `setting`'s proxy and system
 * prompt (one-api's `system_prompt` column too) copied into the channel's setting. The proxy's value, which may
 * hold a password, is never quoted in the report.
 */
export function mapOverrides(ctx: MapContext, row: SourceRow, id: number, setting: Record<string, unknown>): Record<'paramOverride' | 'headerOverride' | 'statusCodeMapping', string> {
  const column = (field: keyof typeof OVERRIDE_FIELDS): string => {
    const raw = text(row[field]).trim()
    if (!raw || raw === '{}') return ''
    try {
      return storedOverride(field, raw)
    } catch (error) {
      if (!(error instanceof OverrideError)) throw error
      ctx.report.issue('channels', field, `${field} ${error.message}: dropped`, id)
      return ''
    }
  }
  const source = jsonObject(row.setting) ?? {}
  const proxy = text(source.proxy).trim()
  if (proxy) {
    try {
      setting.proxy = parseProxy(proxy)
    } catch (error) {
      if (!(error instanceof OverrideError)) throw error
      ctx.report.issue('channels', 'setting.proxy', `the proxy ${error.message}: dropped`, id)
    }
  }
  const prompt = text(source.system_prompt) || text(row.system_prompt)
  if (prompt.trim()) {
    setting.system_prompt = prompt
    if (source.system_prompt_override === true) setting.system_prompt_override = true
  }
  return { paramOverride: column('param_override'), headerOverride: column('header_override'), statusCodeMapping: column('status_code_mapping') }
}

/**
 * The channel drawer's override fields (new-api's: param_override, header_override, status_code_mapping, and in
 * `setting` the system prompt, its override flag and the proxy), as typed, checked for JSON before sending; the
 * server checks the rest (src/relay/overrides) and names the field when it refuses.
 */
export interface OverrideForm {
  paramOverride: string
  headerOverride: string
  statusCodeMapping: string
  systemPrompt: string
  systemPromptOverride: boolean
  proxy: string
}

export type OverrideField = 'paramOverride' | 'headerOverride' | 'statusCodeMapping' | 'proxy'
export type OverrideProblem = 'json' | 'object' | 'proxy'

interface StoredOverrides {
  param_override?: string
  header_override?: string
  status_code_mapping?: string
  setting?: string
}

const pretty = (text: string | undefined): string => {
  if (!text) return ''
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

function settingOf(stored?: StoredOverrides): Record<string, unknown> {
  try {
    const value: unknown = stored?.setting ? JSON.parse(stored.setting) : {}
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

export function overrideFormOf(stored?: StoredOverrides): OverrideForm {
  const setting = settingOf(stored)
  return {
    paramOverride: pretty(stored?.param_override),
    headerOverride: pretty(stored?.header_override),
    statusCodeMapping: pretty(stored?.status_code_mapping),
    systemPrompt: typeof setting.system_prompt === 'string' ? setting.system_prompt : '',
    systemPromptOverride: setting.system_prompt_override === true,
    proxy: typeof setting.proxy === 'string' ? setting.proxy : '',
  }
}

function jsonProblem(text: string): OverrideProblem | undefined {
  if (!text.trim()) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? undefined : 'object'
  } catch {
    return 'json'
  }
}

export function checkOverrideForm(form: OverrideForm): Partial<Record<OverrideField, OverrideProblem>> {
  const problems: Partial<Record<OverrideField, OverrideProblem>> = {}
  for (const field of ['paramOverride', 'headerOverride', 'statusCodeMapping'] as const) {
    const problem = jsonProblem(form[field])
    if (problem) problems[field] = problem
  }
  if (form.proxy.trim() && !/^(https?|socks5h?):\/\/[^\s/]+\/?$/i.test(form.proxy.trim())) problems.proxy = 'proxy'
  return problems
}

/** The body's override fields; `setting` keeps what else the stored one holds (an upstream protocol pin …). */
export function overrideBody(form: OverrideForm, stored?: StoredOverrides): Record<string, unknown> {
  const setting: Record<string, unknown> = { ...settingOf(stored) }
  for (const key of ['system_prompt', 'system_prompt_override', 'proxy']) delete setting[key]
  if (form.systemPrompt.trim()) setting.system_prompt = form.systemPrompt
  if (form.systemPrompt.trim() && form.systemPromptOverride) setting.system_prompt_override = true
  if (form.proxy.trim()) setting.proxy = form.proxy.trim()
  return {
    param_override: form.paramOverride.trim(),
    header_override: form.headerOverride.trim(),
    status_code_mapping: form.statusCodeMapping.trim(),
    setting,
  }
}

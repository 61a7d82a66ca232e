import type { OptionStore } from '../../../options/store'

/** The model_regex option compiled once (the last one seen: it rarely changes). */
let compiled: { source: string; pattern: RegExp | undefined } | undefined

/** Whether sessions of `model` in `group` are pinned: the switch, then the group's word, then the model list. */
export function affinityApplies(options: Pick<OptionStore, 'get'>, group: string, model: string): boolean {
  if (!options.get<boolean>('channel_affinity_setting.enabled')) return false
  const byGroup = options.get<Record<string, boolean>>('channel_affinity_setting.groups')[group]
  if (byGroup !== undefined) return byGroup
  const source = options.get<string>('channel_affinity_setting.model_regex')
  if (compiled?.source !== source) compiled = { source, pattern: source ? new RegExp(source) : undefined }
  return compiled.pattern?.test(model) ?? false
}

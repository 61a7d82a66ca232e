import { CheckboxField } from '../../components/field'
import { useI18n } from '../../i18n'
import type { Channel } from './types'

/** The upstream model check's switches and last findings, read from the channel's `settings` (new-api's names). */
export interface UpstreamFindings {
  check: boolean
  autoSync: boolean
  lastCheck: number
  detected: string[]
  removed: string[]
}

const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [])

function settingsObject(channel?: Channel): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(channel?.settings || '{}')
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

export function upstreamFindings(channel?: Channel): UpstreamFindings {
  const o = settingsObject(channel)
  return {
    check: o.upstream_model_update_check_enabled === true,
    autoSync: o.upstream_model_update_auto_sync_enabled === true,
    lastCheck: typeof o.upstream_model_update_last_check_time === 'number' ? o.upstream_model_update_last_check_time : 0,
    detected: list(o.upstream_model_update_last_detected_models),
    removed: list(o.upstream_model_update_last_removed_models),
  }
}

/** The drawer's `settings`: the stored object with the two switches as the form has them. */
export function upstreamSettingsBody(switches: { check: boolean; autoSync: boolean }, channel?: Channel) {
  return { settings: { ...settingsObject(channel), upstream_model_update_check_enabled: switches.check, upstream_model_update_auto_sync_enabled: switches.autoSync } }
}

/** The drawer's two switches: check on a schedule, and add what it finds without review. */
export function UpstreamSwitches({ check, autoSync, onChange }: { check: boolean; autoSync: boolean; onChange(next: { check: boolean; autoSync: boolean }): void }) {
  const { t } = useI18n()
  return (
    <>
      <CheckboxField label={t('upstreamCheck.enabled')} hint={t('upstreamCheck.enabledHint')} checked={check} onChecked={(value) => onChange({ check: value, autoSync })} />
      <CheckboxField label={t('upstreamCheck.autoSync')} hint={t('upstreamCheck.autoSyncHint')} checked={autoSync} disabled={!check} onChecked={(value) => onChange({ check, autoSync: value })} />
    </>
  )
}

/** A badge on the channel's row when the last check left changes to review. */
export function PendingBadge({ channel }: { channel: Channel }) {
  const { t } = useI18n()
  const found = upstreamFindings(channel)
  const count = found.detected.length + found.removed.length
  if (count === 0) return null
  return (
    <span class="chip" title={t('upstreamCheck.pendingTitle', { added: found.detected.length, removed: found.removed.length })}>
      {t('upstreamCheck.pending', { count })}
    </span>
  )
}

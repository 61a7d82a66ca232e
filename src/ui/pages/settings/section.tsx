import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { checkSection, toFieldValue, type FieldValue, type OptionEntry, type OptionProblem, type OptionValue } from '../../lib/option-form'
import { useSession } from '../../state/session'
import { OptionField } from './option-field'
import { STATUS_KEYS, type SettingField } from './sections'

export interface SectionText {
  title: string
  lead: string
  save: string
  saved: string
  label(field: SettingField): string
  hint(field: SettingField): string | undefined
}

interface Props {
  id: string
  fields: readonly SettingField[]
  text: SectionText
  stored: ReadonlyMap<string, OptionEntry>
  pricingLink?: boolean
  /** a key was saved: the value the server kept */
  onStored(key: string, value: OptionValue): void
  /** shown under the section's form (the mail section's test mail) */
  children?: ComponentChildren
}

/** One section of settings with its own Save button, which sends only the keys that changed, one at a time. */
export function SettingsSection({ id, fields, text, stored, pricingLink, onStored, children }: Props) {
  const { t } = useI18n()
  const toast = useToast()
  const { refreshStatus } = useSession()
  const present = fields.filter((field) => stored.has(field.key))
  const [values, setValues] = useState<Record<string, FieldValue>>(() => Object.fromEntries(present.map((field) => [field.key, toFieldValue(stored.get(field.key)!.type, stored.get(field.key)!.value)])))
  const [problems, setProblems] = useState<Partial<Record<string, OptionProblem>>>({})
  const [failure, setFailure] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  if (present.length === 0) return null
  const quotaPerUnit = Number(stored.get('QuotaPerUnit')?.value ?? 500_000)

  const save = async (event: Event) => {
    event.preventDefault()
    const check = checkSection(present, stored, values)
    setProblems(check.problems)
    setFailure(undefined)
    if (Object.keys(check.problems).length > 0) return
    if (check.changes.length === 0) {
      toast(t('settings.toast.unchanged'))
      return
    }
    setBusy(true)
    let statusChanged = false
    try {
      for (const change of check.changes) {
        const saved = await api.put<{ key: string; value: OptionValue }>('/api/option/', change)
        onStored(change.key, saved.value)
        if (STATUS_KEYS.has(change.key)) statusChanged = true
      }
      toast(text.saved)
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
      if (statusChanged) await refreshStatus().catch(() => undefined)
    }
  }

  return (
    <section class="card settings-section" id={`settings-${id}`} aria-labelledby={`settings-${id}-title`}>
      <h2 id={`settings-${id}-title`}>{text.title}</h2>
      <p class="lead">{text.lead}</p>
      <form class="form settings-form" onSubmit={save} noValidate>
        <div class="settings-fields">
          {present.map((field) => (
            <OptionField
              key={field.key}
              entry={stored.get(field.key)!}
              field={field}
              label={text.label(field)}
              hint={text.hint(field)}
              value={values[field.key]!}
              problem={problems[field.key]}
              quotaPerUnit={quotaPerUnit}
              onValue={(value) => {
                setValues((previous) => ({ ...previous, [field.key]: value }))
                setProblems((previous) => ({ ...previous, [field.key]: undefined }))
              }}
            />
          ))}
        </div>
        {pricingLink && (
          <p class="muted settings-note">
            {t('settings.billing.pricingNote')} <Link href="/pricing">{t('settings.billing.pricingLink')}</Link>
            {t('settings.billing.pricingAfter')}
          </p>
        )}
        <ErrorAlert error={failure} />
        <div class="settings-actions">
          <Button type="submit" variant="primary" busy={busy}>
            {text.save}
          </Button>
        </div>
      </form>
      {children}
    </section>
  )
}

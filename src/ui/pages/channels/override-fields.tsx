import { CheckboxField, TextAreaField, TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import type { OverrideField, OverrideForm, OverrideProblem } from '../../lib/channel-overrides-form'

interface Props {
  form: OverrideForm
  problems: Partial<Record<OverrideField, OverrideProblem>>
  onChange<K extends keyof OverrideForm>(key: K, value: OverrideForm[K]): void
}

/** new-api's per-channel overrides, folded away until opened (open already when the channel has any). */
export function OverrideFields({ form, problems, onChange }: Props) {
  const { t } = useI18n()
  const used = Object.values(form).some((value) => value !== '' && value !== false)
  const problem = (field: OverrideField) => {
    const code = problems[field]
    return code && t(code === 'json' ? 'channelOverrides.error.json' : code === 'object' ? 'channelOverrides.error.object' : 'channelOverrides.error.proxy')
  }
  const area = (field: 'paramOverride' | 'headerOverride' | 'statusCodeMapping', placeholder: string) => (
    <TextAreaField
      label={t(`channelOverrides.${field}`)}
      hint={t(`channelOverrides.${field}Hint`)}
      value={form[field]}
      onValue={(value) => onChange(field, value)}
      rows={4}
      spellcheck={false}
      class="mono"
      placeholder={placeholder}
      error={problem(field)}
    />
  )
  return (
    <details open={used}>
      <summary>{t('channelOverrides.title')}</summary>
      {area('paramOverride', '{\n  "operations": [{ "path": "temperature", "mode": "set", "value": 0.2 }]\n}')}
      {area('headerOverride', '{\n  "X-Api-Key": "{api_key}"\n}')}
      {area('statusCodeMapping', '{\n  "400": "500"\n}')}
      <TextAreaField label={t('channelOverrides.systemPrompt')} hint={t('channelOverrides.systemPromptHint')} value={form.systemPrompt} onValue={(value) => onChange('systemPrompt', value)} rows={3} />
      <CheckboxField label={t('channelOverrides.systemPromptOverride')} checked={form.systemPromptOverride} onChecked={(value) => onChange('systemPromptOverride', value)} />
      <TextField label={t('channelOverrides.proxy')} hint={t('channelOverrides.proxyHint')} value={form.proxy} onValue={(value) => onChange('proxy', value)} spellcheck={false} class="mono" placeholder="socks5://user:pass@host:1080" error={problem('proxy')} />
    </details>
  )
}

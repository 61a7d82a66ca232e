import { useMemo, useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { PageHeader } from '../../components/page-header'
import { useI18n, type MessageKey } from '../../i18n'
import type { OptionEntry, OptionValue } from '../../lib/option-form'
import { useApi } from '../../state/use-api'
import { CALLBACK_PATHS, type PaymentSectionId } from './payment-sections'
import { KNOWN_KEYS, PRICING_KEYS, SECTIONS, type SettingField } from './sections'
import { SettingsSection, type SectionText } from './section'
import { TestMailForm } from './test-mail'
import { ProviderTestButton } from './provider-test'
import { AffinityCacheCard } from './affinity-cache'
import { CallbackUrl } from './callback-url'
import { CustomProvidersSection } from './custom-providers'

/** Root's runtime settings (`GET /api/option/`), section by section, each saved on its own. */
export function SettingsPage() {
  const { t, locale } = useI18n()
  const options = useApi(() => api.get<OptionEntry[]>('/api/option/'), [])
  const [saved, setSaved] = useState<Record<string, OptionValue>>({})
  const stored = useMemo(() => new Map((options.data ?? []).map((entry) => [entry.key, { ...entry, value: entry.key in saved ? saved[entry.key]! : entry.value }])), [options.data, saved])
  const onStored = (key: string, value: OptionValue) => setSaved((previous) => ({ ...previous, [key]: value }))
  // options the backend has and this page does not know yet: shown by key, the server's English only in English
  const others = (options.data ?? []).filter((entry) => !KNOWN_KEYS.has(entry.key) && !PRICING_KEYS.has(entry.key)).map((entry) => ({ key: entry.key }))

  // as the server picks it (modules/payments/deps.ts): CustomCallbackAddress, ServerAddress, else this address
  const callbackBase = String(stored.get('CustomCallbackAddress')?.value || stored.get('ServerAddress')?.value || window.location.origin)
  const sectionText = (id: string): SectionText => ({
    title: t(`settings.section.${id}.title` as MessageKey),
    lead: t(`settings.section.${id}.lead` as MessageKey),
    save: t(`settings.section.${id}.save` as MessageKey),
    saved: t(`settings.section.${id}.saved` as MessageKey),
    label: (field: SettingField) => t(`settings.option.${field.key}` as MessageKey),
    hint: (field: SettingField) => t(`settings.hint.${field.key}` as MessageKey),
  })
  const otherText: SectionText = {
    ...sectionText('other'),
    label: (field) => field.key,
    hint: (field) => (locale === 'en' ? stored.get(field.key)?.description : undefined),
  }

  return (
    <>
      <PageHeader title={t('nav.settings')} lead={t('settings.lead')} />
      <ErrorAlert error={options.error} />
      {!options.data && options.loading && (
        <div class="card settings-loading" aria-busy="true">
          <p class="muted">{t('common.loading')}</p>
          <span class="skeleton" />
          <span class="skeleton" />
          <span class="skeleton" />
        </div>
      )}
      {options.data && (
        <div class="settings-sections">
          <nav class="settings-toc" aria-label={t('settings.toc')}>
            <ul>
              {SECTIONS.filter((section) => section.fields.some((field) => stored.has(field.key))).map((section) => (
                <li key={section.id}>
                  <a href={`#settings-${section.id}`}>{t(`settings.section.${section.id}.title`)}</a>
                </li>
              ))}
            </ul>
          </nav>
          <div class="settings-main">
            {SECTIONS.map((section) => (
              <SettingsSection key={section.id} id={section.id} fields={section.fields} text={sectionText(section.id)} stored={stored} pricingLink={section.pricingLink} onStored={onStored}>
                {section.id === 'mail' && <TestMailForm />}
                {(section.id === 'stripe' || section.id === 'creem' || section.id === 'epay') && <ProviderTestButton provider={section.id} />}
                {section.id === 'affinity' && <AffinityCacheCard />}
                {section.callback && <CallbackUrl base={String(stored.get('ServerAddress')?.value ?? '')} path={section.callback} label={t('accounts.settings.callback')} unsetNote={t('accounts.settings.callbackNoAddress')} />}
                {CALLBACK_PATHS[section.id as PaymentSectionId] && <CallbackUrl base={callbackBase} path={CALLBACK_PATHS[section.id as PaymentSectionId]!} label={t('settings.payments.callback')} />}
              </SettingsSection>
            ))}
            {/* with the sign-in providers (a backend without them has no such routes either) */}
            {stored.has('GitHubOAuthEnabled') && <CustomProvidersSection serverAddress={String(stored.get('ServerAddress')?.value ?? '')} />}
            {others.length > 0 && <SettingsSection id="other" fields={others} text={otherText} stored={stored} onStored={onStored} />}
          </div>
        </div>
      )}
    </>
  )
}

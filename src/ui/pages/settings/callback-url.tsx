import { CopyButton } from '../../components/copy-button'
import { useI18n } from '../../i18n'

/** A provider's notify or webhook address on this instance, to copy into the provider's dashboard. */
export function CallbackUrl({ base, path }: { base: string; path: string }) {
  const { t } = useI18n()
  const url = `${base.replace(/\/+$/, '')}${path}`
  return (
    <div class="settings-callback">
      <span class="muted">{t('settings.payments.callback')}</span> <code>{url}</code> <CopyButton text={url} label={t('settings.payments.callback')} />
    </div>
  )
}

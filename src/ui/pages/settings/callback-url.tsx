import { CopyButton } from '../../components/copy-button'
import { useI18n } from '../../i18n'

/** The URL to register at the provider: the public address (or this page's origin while it is unset) and the path. */
export function CallbackUrl({ serverAddress, path }: { serverAddress: string; path: string }) {
  const { t } = useI18n()
  const url = `${serverAddress || location.origin}${path}`
  return (
    <div class="callback-url">
      <span>{t('accounts.settings.callback')}</span>
      <code>{url}</code>
      <CopyButton text={url} label={t('accounts.settings.callback')} />
      {!serverAddress && <p class="muted">{t('accounts.settings.callbackNoAddress')}</p>}
    </div>
  )
}

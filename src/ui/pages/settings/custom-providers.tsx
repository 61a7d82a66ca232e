import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { useConfirm } from '../../components/dialog'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { useSession } from '../../state/session'
import { useApi } from '../../state/use-api'
import { useSubmit } from '../../state/use-submit'
import { CallbackUrl } from './callback-url'
import { CustomProviderDrawer, type CustomProvider } from './custom-provider-drawer'

/** Settings → custom sign-in providers (`/api/custom-oauth-provider`): list, add, edit, delete, each with its callback URL. */
export function CustomProvidersSection({ serverAddress }: { serverAddress: string }) {
  const { t } = useI18n()
  const { refreshStatus } = useSession()
  const list = useApi(() => api.get<CustomProvider[]>('/api/custom-oauth-provider/'), [])
  const [editing, setEditing] = useState<CustomProvider | 'new' | undefined>()
  const { failure, run } = useSubmit()
  const confirm = useConfirm()
  const toast = useToast()
  const changed = (message: string) => {
    toast(message)
    list.reload()
    void refreshStatus().catch(() => undefined)
  }
  const remove = async (provider: CustomProvider) => {
    if (!(await confirm({ message: t('accounts.custom.confirmDelete', { name: provider.name }), confirmLabel: t('common.delete') }))) return
    await run(async () => {
      await api.delete(`/api/custom-oauth-provider/${provider.id}`)
      changed(t('accounts.custom.deleted', { name: provider.name }))
    })
  }
  return (
    <section class="card settings-section" id="settings-customOAuth" aria-labelledby="settings-customOAuth-title">
      <h2 id="settings-customOAuth-title">{t('accounts.custom.title')}</h2>
      <p class="lead">{t('accounts.custom.lead')}</p>
      <ErrorAlert error={list.error} />
      {list.data?.length === 0 && <p class="muted">{t('accounts.custom.none')}</p>}
      <ul class="binding-list">
        {list.data?.map((provider) => (
          <li key={provider.id}>
            <span>{provider.name}</span>
            <span class="muted">{provider.enabled ? t('accounts.custom.on') : t('accounts.custom.off')}</span>
            <Button variant="ghost" aria-label={t('accounts.custom.edit', { name: provider.name })} onClick={() => setEditing(provider)}>
              {t('common.edit')}
            </Button>
            <Button variant="ghost" aria-label={t('accounts.custom.delete', { name: provider.name })} onClick={() => remove(provider)}>
              {t('common.delete')}
            </Button>
            <CallbackUrl base={serverAddress} path={`/oauth/${provider.slug}`} label={t('accounts.settings.callback')} unsetNote={t('accounts.settings.callbackNoAddress')} />
          </li>
        ))}
      </ul>
      <ErrorAlert error={failure} />
      <Button variant="secondary" onClick={() => setEditing('new')}>
        {t('accounts.custom.add')}
      </Button>
      {editing && (
        <CustomProviderDrawer
          provider={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined)
            changed(t('accounts.custom.saved'))
          }}
        />
      )}
    </section>
  )
}

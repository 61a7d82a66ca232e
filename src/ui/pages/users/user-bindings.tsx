import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { useConfirm } from '../../components/dialog'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { providerName, type Bindings } from '../../lib/oauth-providers'
import { useSession } from '../../state/session'
import { useApi } from '../../state/use-api'
import { useSubmit } from '../../state/use-submit'

/** In the user drawer: the providers bound to this user; an admin clears one (and may set a password above). */
export function UserBindings({ userId, username }: { userId: number; username: string }) {
  const { t } = useI18n()
  const { status } = useSession()
  const list = useApi(() => api.get<Bindings>(`/api/user/${userId}/oauth/bindings`), [userId])
  const { busy, failure, run } = useSubmit()
  const confirm = useConfirm()
  const toast = useToast()
  const clear = async (provider: string) => {
    const name = providerName(provider, status)
    if (!(await confirm({ message: t('accounts.admin.confirmClear', { name, user: username }), confirmLabel: t('accounts.admin.clear') }))) return
    await run(async () => {
      await api.delete(`/api/user/${userId}/bindings/${encodeURIComponent(provider)}`)
      toast(t('accounts.admin.cleared', { name, user: username }))
      list.reload()
    })
  }
  return (
    <section aria-labelledby={`user-bindings-${userId}`}>
      <h3 id={`user-bindings-${userId}`}>{t('accounts.admin.title')}</h3>
      <ErrorAlert error={list.error} />
      {list.data && list.data.bindings.length === 0 && <p class="muted">{t('accounts.admin.none')}</p>}
      {list.data && !list.data.has_password && <p class="muted">{t('accounts.admin.noPassword')}</p>}
      <ul class="binding-list">
        {list.data?.bindings.map((b) => (
          <li key={b.provider}>
            <span>{providerName(b.provider, status)}</span> <span class="muted">{b.external_id}</span>{' '}
            <Button variant="ghost" busy={busy} aria-label={t('accounts.admin.clearName', { name: providerName(b.provider, status) })} onClick={() => clear(b.provider)}>
              {t('accounts.admin.clear')}
            </Button>
          </li>
        ))}
      </ul>
      <ErrorAlert error={failure} />
    </section>
  )
}

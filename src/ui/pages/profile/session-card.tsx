import { useLocation } from 'wouter-preact'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { useConfirm } from '../../components/dialog'
import { useI18n } from '../../i18n'
import { useSession } from '../../state/session'
import { useSubmit } from '../../state/use-submit'

/** Logging out: this session only, or everywhere (every session and the access token, after a confirmation). */
export function SessionCard() {
  const { t } = useI18n()
  const { logout } = useSession()
  const [, navigate] = useLocation()
  const confirm = useConfirm()
  const { busy, failure, run } = useSubmit()

  const leave = async (everywhere: boolean) => {
    await logout(everywhere)
    navigate('/login', { replace: true })
  }
  const leaveEverywhere = async () => {
    const ok = await confirm({ message: t('profile.session.logoutAllConfirm'), confirmLabel: t('profile.session.logoutAllLabel') })
    if (ok) await run(() => leave(true))
  }

  return (
    <section class="card" aria-labelledby="profile-session-title">
      <h2 id="profile-session-title">{t('profile.session.title')}</h2>
      <p class="muted">{t('profile.session.lead')}</p>
      <ErrorAlert error={failure} />
      <div class="profile-session-actions">
        <Button variant="secondary" onClick={() => leave(false)}>
          {t('profile.session.logout')}
        </Button>
        <Button variant="danger" busy={busy} onClick={leaveEverywhere}>
          {t('profile.session.logoutAll')}
        </Button>
      </div>
    </section>
  )
}

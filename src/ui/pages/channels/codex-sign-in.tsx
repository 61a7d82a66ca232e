import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { useI18n } from '../../i18n'

interface SignedIn {
  email: string
  expires_at: string
  /** a channel being created: the sealed key for its key field */
  key?: string
}

interface Usage {
  plan_type?: string
  rate_limit?: { primary_window?: { used_percent?: number }; secondary_window?: { used_percent?: number } }
}

/**
 * A Codex channel's "Sign in with ChatGPT" (src/modules/codex): start opens auth.openai.com in a new tab, the admin
 * pastes back the localhost address the browser landed on, and the tokens go to the channel (or, for a channel not
 * yet created, into its key field sealed). An existing channel can also refresh now and show the subscription's use.
 */
export function CodexSignIn({ channelId, onKey }: { channelId?: number; onKey(sealed: string): void }) {
  const { t, locale } = useI18n()
  const base = channelId ? `/api/channel/${channelId}/codex` : '/api/channel/codex'
  const [started, setStarted] = useState(false)
  const [pasted, setPasted] = useState('')
  const [status, setStatus] = useState('')
  const [failure, setFailure] = useState<unknown>()
  const [busy, setBusy] = useState(false)

  const run = async (work: () => Promise<void>) => {
    setBusy(true)
    setFailure(undefined)
    try {
      await work()
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
    }
  }
  const start = () =>
    run(async () => {
      const { authorize_url } = await api.post<{ authorize_url: string }>(`${base}/oauth/start`)
      window.open(authorize_url, '_blank', 'noopener')
      setStarted(true)
      setStatus('')
    })
  const complete = () =>
    run(async () => {
      const done = await api.post<SignedIn>(`${base}/oauth/complete`, { input: pasted.trim() })
      if (done.key) onKey(done.key)
      setStatus(t(done.key ? 'codex.signedInNew' : 'codex.signedIn', { email: done.email || '—' }))
      setStarted(false)
      setPasted('')
    })
  const refresh = () =>
    run(async () => {
      const done = await api.post<SignedIn>(`${base}/refresh`)
      setStatus(t('codex.refreshed', { when: new Date(done.expires_at).toLocaleString(locale) }))
    })
  const usage = () =>
    run(async () => {
      const read = await api.get<Usage>(`${base}/usage`)
      const percent = (value: number | undefined) => (value === undefined ? '—' : String(Math.round(value)))
      setStatus(t('codex.usageLine', { plan: read.plan_type ?? 'ChatGPT', short: percent(read.rate_limit?.primary_window?.used_percent), long: percent(read.rate_limit?.secondary_window?.used_percent) }))
    })

  return (
    <fieldset class="codex-sign-in">
      <legend>{t('codex.title')}</legend>
      <div class="form-row">
        <Button onClick={start} busy={busy && !started}>{t('codex.signIn')}</Button>
        {channelId !== undefined && <Button onClick={refresh} disabled={busy}>{t('codex.refresh')}</Button>}
        {channelId !== undefined && <Button onClick={usage} disabled={busy}>{t('codex.usage')}</Button>}
      </div>
      {started && (
        <>
          <p class="hint">{t('codex.steps')}</p>
          <TextField label={t('codex.pasteLabel')} value={pasted} onValue={setPasted} spellcheck={false} autocomplete="off" class="mono" placeholder="http://localhost:1455/auth/callback?code=…" />
          <Button variant="primary" onClick={complete} busy={busy} disabled={!pasted.trim()}>{t('codex.complete')}</Button>
        </>
      )}
      {status && <p role="status">{status}</p>}
      <ErrorAlert error={failure} />
    </fieldset>
  )
}

import { useEffect, useState } from 'preact/hooks'
import { useLocation } from 'wouter-preact'
import { api, ApiError } from '../../api/client'
import { TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { useSession } from '../../state/session'
import { CredentialsForm } from './credentials-form'
import { logIn } from './login-after'
import { UsageChoice, type SetupUsage } from './usage-choice'

interface SetupState {
  status: boolean
  root_init: boolean
  /** from another machine, the server wants the one-time code from its log */
  code_required?: boolean
}

/** The code from the setup link the server logs (`/setup?code=…`), so following the link fills it in. */
const codeFromLink = () => new URLSearchParams(globalThis.location?.search ?? '').get('code') ?? ''

/** First run: create root (with the setup code, from the network), then log in as root. */
export function SetupPage() {
  const { t } = useI18n()
  const { refresh, refreshStatus } = useSession()
  const [, navigate] = useLocation()
  const [codeRequired, setCodeRequired] = useState(false)
  const [code, setCode] = useState(codeFromLink)
  const [usage, setUsage] = useState<SetupUsage>('self')
  useEffect(() => {
    api.get<SetupState>('/api/setup').then((state) => setCodeRequired(Boolean(state.code_required)), () => {})
  }, [])
  return (
    <>
      <h1>{t('auth.setup.title')}</h1>
      <p class="lead">{t('auth.setup.lead')}</p>
      <CredentialsForm
        strict
        confirm
        submitLabel={t('auth.setup.submit')}
        onSubmit={async ({ username, password }) => {
          try {
            await api.post('/api/setup', { username, password, confirmPassword: password, usage, ...(code.trim() ? { code: code.trim() } : {}) })
          } catch (error) {
            // the server's 403 and 429 are about the code: said in the page's language
            if (error instanceof ApiError && error.status === 403) throw new ApiError(403, t(code.trim() ? 'auth.setup.codeWrong' : 'auth.setup.codeMissing'))
            if (error instanceof ApiError && error.status === 429) throw new ApiError(429, t('auth.setup.codeTooMany'))
            throw error
          }
          await refreshStatus()
          await logIn(username, password, refresh, navigate)
        }}
      >
        <UsageChoice value={usage} onValue={setUsage} />
        {codeRequired && <TextField label={t('auth.setup.code')} hint={t('auth.setup.codeHint')} value={code} onValue={setCode} autocomplete="off" spellcheck={false} required />}
      </CredentialsForm>
    </>
  )
}

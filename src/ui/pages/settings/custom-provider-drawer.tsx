import { useId, useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { Drawer } from '../../components/drawer'
import { CheckboxField, SelectField, TextField } from '../../components/field'
import { useI18n, type MessageKey } from '../../i18n'
import { useSubmit } from '../../state/use-submit'

/** `GET /api/custom-oauth-provider/`: a provider as the server shows it (no secret). */
export interface CustomProvider {
  id: number
  name: string
  slug: string
  enabled: boolean
  client_id: string
  client_secret_configured: boolean
  authorization_endpoint: string
  token_endpoint: string
  user_info_endpoint: string
  scopes: string
  user_id_field: string
  username_field: string
  display_name_field: string
  email_field: string
  auth_style: number
}

const TEXT_FIELDS = ['name', 'slug', 'client_id', 'authorization_endpoint', 'token_endpoint', 'user_info_endpoint', 'scopes', 'user_id_field', 'username_field', 'display_name_field', 'email_field'] as const
type TextKey = (typeof TEXT_FIELDS)[number]
const EMPTY: Record<TextKey, string> = {
  name: '', slug: '', client_id: '', authorization_endpoint: '', token_endpoint: '', user_info_endpoint: '',
  scopes: 'openid profile email', user_id_field: 'sub', username_field: 'preferred_username', display_name_field: 'name', email_field: 'email',
}

/** Add or edit a custom provider; the secret is typed hidden, and left empty keeps the stored one. */
export function CustomProviderDrawer({ provider, onClose, onSaved }: { provider?: CustomProvider; onClose(): void; onSaved(): void }) {
  const { t } = useI18n()
  const formId = useId()
  const [text, setText] = useState<Record<TextKey, string>>(() => (provider ? Object.fromEntries(TEXT_FIELDS.map((k) => [k, provider[k]])) as Record<TextKey, string> : EMPTY))
  const [secret, setSecret] = useState('')
  const [enabled, setEnabled] = useState(provider?.enabled ?? true)
  const [authStyle, setAuthStyle] = useState(String(provider?.auth_style ?? 0))
  const { busy, failure, run } = useSubmit()
  const submit = (event: Event) => {
    event.preventDefault()
    void run(async () => {
      const body = { ...Object.fromEntries(TEXT_FIELDS.map((k) => [k, text[k].trim()])), client_secret: secret, enabled, auth_style: Number(authStyle) }
      if (provider) await api.put(`/api/custom-oauth-provider/${provider.id}`, body)
      else await api.post('/api/custom-oauth-provider/', body)
      onSaved()
    })
  }
  const field = (key: TextKey) => (
    <TextField key={key} label={t(`accounts.custom.field.${key}` as MessageKey)} value={text[key]} onValue={(value) => setText((previous) => ({ ...previous, [key]: value }))} autocomplete="off" />
  )
  return (
    <Drawer
      title={provider ? t('accounts.custom.edit', { name: provider.name }) : t('accounts.custom.add')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" form={formId} variant="primary" busy={busy}>
            {t('accounts.custom.save')}
          </Button>
        </>
      }
    >
      <form id={formId} class="form" onSubmit={submit} noValidate>
        <CheckboxField label={t('accounts.custom.field.enabled')} checked={enabled} onChecked={setEnabled} />
        {field('name')}
        {field('slug')}
        {field('client_id')}
        <TextField
          label={t('accounts.custom.field.client_secret')}
          type="password"
          value={secret}
          onValue={setSecret}
          autocomplete="new-password"
          hint={provider?.client_secret_configured ? t('accounts.custom.secretKept') : undefined}
        />
        {field('authorization_endpoint')}
        {field('token_endpoint')}
        {field('user_info_endpoint')}
        {field('scopes')}
        {field('user_id_field')}
        {field('username_field')}
        {field('display_name_field')}
        {field('email_field')}
        <SelectField
          label={t('accounts.custom.field.auth_style')}
          value={authStyle}
          onValue={setAuthStyle}
          options={[
            { value: '0', label: t('accounts.custom.auth.basic') },
            { value: '1', label: t('accounts.custom.auth.post') },
          ]}
        />
        <ErrorAlert error={failure} />
      </form>
    </Drawer>
  )
}

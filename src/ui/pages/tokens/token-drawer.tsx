import { useId, useState } from 'preact/hooks'
import { api } from '../../api/client'
import type { Token } from '../../api/types'
import { Button } from '../../components/button'
import { Drawer } from '../../components/drawer'
import { useI18n } from '../../i18n'
import type { TokenBody } from '../../lib/token-form'
import { useSession, useUser } from '../../state/session'
import { useApi } from '../../state/use-api'
import { TokenForm, type Groups } from './token-form'

interface Props {
  /** the token to edit; none = create */
  token?: Token
  models: readonly string[] | undefined
  onClose(): void
  /** after the server took it: the created token carries the full key, once */
  onSaved(token: Token, created: boolean): void
}

/** Create or edit a token in the side drawer; the list stays behind it. */
export function TokenDrawer({ token, models, onClose, onSaved }: Props) {
  const { t } = useI18n()
  const { status } = useSession()
  const user = useUser()
  const groups = useApi(() => api.get<Groups>('/api/user/self/groups'), [])
  const [busy, setBusy] = useState(false)
  const formId = useId()

  const save = async (body: TokenBody) => {
    if (token) onSaved(await api.put<Token>('/api/token/', { id: token.id, ...body }), false)
    else onSaved(await api.post<Token>('/api/token/', body), true)
  }

  return (
    <Drawer
      title={token ? t('tokens.form.editTitle', { name: token.name }) : t('tokens.form.createTitle')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" form={formId} busy={busy}>
            {token ? t('common.save') : t('common.create')}
          </Button>
        </>
      }
    >
      <TokenForm
        id={formId}
        initial={token}
        quotaPerUnit={status?.quota_per_unit ?? 500_000}
        userGroup={user.group}
        groups={groups.data}
        models={models}
        onSubmit={save}
        onBusy={setBusy}
      />
    </Drawer>
  )
}

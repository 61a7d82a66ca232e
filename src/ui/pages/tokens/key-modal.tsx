import { Button } from '../../components/button'
import { CopyButton } from '../../components/copy-button'
import { Modal } from '../../components/dialog'
import { useI18n } from '../../i18n'
import { KEY_PLACEHOLDER, snippetBaseUrl } from '../../lib/snippets'
import { useSession } from '../../state/session'
import type { Token } from '../../api/types'
import { SnippetSetup } from './snippet-setup'

/** The instance's address for clients: root's ServerAddress, else where this console is served from. */
function useBaseUrl(): string {
  const { status } = useSession()
  return snippetBaseUrl(status?.server_address, location.origin)
}

/** The full key of a token just created, shown this once, with the client setups filled in. */
export function NewKeyModal({ token, models, onClose }: { token: Token; models: readonly string[] | undefined; onClose(): void }) {
  const { t } = useI18n()
  const baseUrl = useBaseUrl()
  return (
    <Modal title={t('tokens.key.title')} onClose={onClose}>
      <div class="alert new-key-warning" role="note">{t('tokens.key.warning')}</div>
      <p class="new-key-label" id="new-key-label">
        {t('tokens.key.label')}
      </p>
      <div class="key-box new-key-box" role="group" aria-labelledby="new-key-label">
        <code>{token.key}</code>
        <CopyButton text={token.key} label={t('tokens.key.label')} />
      </div>
      <h3 class="setup-heading">{t('tokens.setup.heading')}</h3>
      <SnippetSetup token={token} models={models} baseUrl={baseUrl} keyText={token.key} />
      <div class="dialog-actions">
        <Button variant="primary" onClick={onClose}>
          {t('tokens.key.done')}
        </Button>
      </div>
    </Modal>
  )
}

/** The same setups for an existing token, whose key is no longer known: a placeholder stands for it. */
export function SetupModal({ token, models, onClose }: { token: Token; models: readonly string[] | undefined; onClose(): void }) {
  const { t } = useI18n()
  const baseUrl = useBaseUrl()
  return (
    <Modal title={`${t('tokens.setup.title')}: ${token.name}`} onClose={onClose}>
      <div class="alert alert-info">{t('tokens.setup.placeholderNote', { placeholder: KEY_PLACEHOLDER })}</div>
      <SnippetSetup token={token} models={models} baseUrl={baseUrl} keyText={KEY_PLACEHOLDER} />
      <div class="dialog-actions">
        <Button onClick={onClose}>{t('common.close')}</Button>
      </div>
    </Modal>
  )
}

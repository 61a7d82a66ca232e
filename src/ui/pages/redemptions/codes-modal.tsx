import { Notice } from '../../components/alert'
import { Button } from '../../components/button'
import { CopyButton } from '../../components/copy-button'
import { Modal } from '../../components/dialog'
import { useQuotaFormat } from '../../components/quota'
import { useI18n } from '../../i18n'
import { downloadCsv, fileSlug } from '../../lib/csv'
import { codesCsv } from '../../lib/redemption'
import { useSession } from '../../state/session'
import type { CreatedCodes } from './create-drawer'

/** The codes just created, shown this once: copy them all, or export them as CSV. */
export function CodesModal({ created, onClose }: { created: CreatedCodes; onClose(): void }) {
  const { t } = useI18n()
  const formatQuota = useQuotaFormat()
  const perUnit = useSession().status?.quota_per_unit ?? 500_000
  const exportCsv = () => {
    const day = new Date().toISOString().slice(0, 10)
    downloadCsv(`redemption-codes-${fileSlug(created.body.name, 'codes')}-${day}.csv`, codesCsv(created.keys, created.body, perUnit))
  }
  return (
    <Modal title={t('redemptions.codes.title', { count: created.keys.length })} onClose={onClose}>
      <Notice>{t('redemptions.codes.once')}</Notice>
      <p class="muted">{t('redemptions.codes.summary', { name: created.body.name, quota: formatQuota(created.body.quota) })}</p>
      <ol class="redemptions-codes" aria-label={t('redemptions.codes.list')}>
        {created.keys.map((key) => (
          <li key={key}>
            <code>{key}</code>
          </li>
        ))}
      </ol>
      <div class="dialog-actions">
        <CopyButton text={created.keys.join('\n')} caption={t('redemptions.codes.copyAll')} />
        <Button onClick={exportCsv}>{t('redemptions.codes.export')}</Button>
        <Button variant="primary" onClick={onClose}>
          {t('redemptions.codes.done')}
        </Button>
      </div>
    </Modal>
  )
}


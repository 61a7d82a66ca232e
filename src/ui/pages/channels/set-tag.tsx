import { useState } from 'preact/hooks'
import { Button } from '../../components/button'
import { Modal } from '../../components/dialog'
import { TextField } from '../../components/field'
import { useI18n } from '../../i18n'

/** Tag the selected channels (an empty tag removes theirs). */
export function SetTagDialog({ count, tags, onSubmit, onClose }: { count: number; tags: readonly string[]; onSubmit(tag: string): Promise<void>; onClose(): void }) {
  const { t } = useI18n()
  const [tag, setTag] = useState('')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    if (tag.trim().length > 100) return setError(t('channels.error.tagLength'))
    setBusy(true)
    await onSubmit(tag.trim())
    setBusy(false)
    onClose()
  }
  return (
    <Modal title={t('channels.batch.setTagTitle', { count })} onClose={onClose}>
      <form class="form" onSubmit={submit} noValidate>
        <TextField label={t('channels.field.tag')} value={tag} onValue={setTag} list="channel-tag-list" hint={t('channels.batch.setTagHint')} error={error} />
        <datalist id="channel-tag-list">
          {tags.map((known) => (
            <option key={known} value={known} />
          ))}
        </datalist>
        <div class="dialog-actions">
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" busy={busy}>
            {t('channels.batch.setTag')}
          </Button>
        </div>
      </form>
    </Modal>
  )
}

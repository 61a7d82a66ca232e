import { useState } from 'preact/hooks'
import { Button } from '../../components/button'
import { TextAreaField } from '../../components/field'
import { useI18n } from '../../i18n'
import { ImagePicker } from './image-picker'

interface Props {
  message: string
  onMessage(message: string): void
  running: boolean
  disabled: boolean
  /** true when the message went out (the field then empties) */
  onSend(message: string): boolean
  onStop(): void
  images: readonly string[]
  onImages(images: string[]): void
}

/** The message field: Enter sends, Shift+Enter is a new line (and Enter while composing Chinese input does nothing). */
export function Composer({ message, onMessage: setMessage, running, disabled, onSend, onStop, images, onImages }: Props) {
  const { t } = useI18n()
  const [invalid, setInvalid] = useState<string>()

  const send = () => {
    if (running || disabled) return
    if (!message.trim()) {
      setInvalid(t('playground.error.message'))
      return
    }
    setInvalid(undefined)
    if (onSend(message)) setMessage('')
  }

  return (
    <form
      class="pg-composer"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        send()
      }}
    >
      <TextAreaField
        label={t('playground.message')}
        value={message}
        onValue={(value) => {
          setMessage(value)
          if (invalid && value.trim()) setInvalid(undefined)
        }}
        rows={3}
        hint={t('playground.messageHint')}
        error={invalid}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.shiftKey || event.isComposing || event.keyCode === 229) return
          event.preventDefault()
          send()
        }}
      />
      <ImagePicker images={images} onImages={onImages} />
      <div class="pg-composer-actions">
        {running && (
          <Button variant="danger" onClick={onStop}>
            {t('playground.stop')}
          </Button>
        )}
        <Button type="submit" variant="primary" busy={running} disabled={disabled}>
          {t('playground.send')}
        </Button>
      </div>
    </form>
  )
}

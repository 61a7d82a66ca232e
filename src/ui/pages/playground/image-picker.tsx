import { useState } from 'preact/hooks'
import { useI18n } from '../../i18n'

const MAX_IMAGES = 4
const MAX_MB = 5

interface Props {
  images: readonly string[]
  onImages(images: string[]): void
}

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(file)
  })

/** Images for vision models: picked files become data: URLs sent as image_url parts; thumbnails with Remove. */
export function ImagePicker({ images, onImages }: Props) {
  const { t } = useI18n()
  const [problem, setProblem] = useState<string>()
  const add = async (files: FileList | null) => {
    if (!files) return
    setProblem(undefined)
    const next = [...images]
    for (const file of files) {
      if (next.length >= MAX_IMAGES) {
        setProblem(t('playground.attach.tooMany', { count: MAX_IMAGES }))
        break
      }
      if (file.size > MAX_MB * 1024 * 1024) {
        setProblem(t('playground.attach.tooBig', { name: file.name, mb: MAX_MB }))
        continue
      }
      next.push(await readAsDataUrl(file))
    }
    onImages(next)
  }
  return (
    <div class="pg-attach">
      <label class="btn btn-secondary pg-attach-button">
        {t('playground.attach')}
        <input
          type="file"
          class="visually-hidden"
          accept="image/png,image/jpeg,image/webp,image/gif"
          multiple
          onChange={(event) => {
            void add(event.currentTarget.files)
            event.currentTarget.value = ''
          }}
        />
      </label>
      <span class="muted pg-attach-hint">{t('playground.attachHint', { count: MAX_IMAGES, mb: MAX_MB })}</span>
      {problem && (
        <p class="field-error" role="alert">
          {problem}
        </p>
      )}
      {images.length > 0 && (
        <ul class="pg-thumbs">
          {images.map((url, i) => (
            <li key={i}>
              <img src={url} alt={t('playground.image', { n: i + 1 })} />
              <button type="button" class="btn btn-ghost" aria-label={t('playground.removeImage', { n: i + 1 })} onClick={() => onImages(images.filter((_, j) => j !== i))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

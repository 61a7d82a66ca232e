import { useState } from 'preact/hooks'
import { useI18n } from '../i18n'
import { Button } from './button'

/**
 * Copies `text`; confirms with a short "Copied". `label` names what is copied for screen readers; `name` is the
 * whole accessible name; `caption` replaces the visible "Copy" ("Copy all").
 */
export function CopyButton({ text, label, name, caption }: { text: string; label?: string; name?: string; caption?: string }) {
  const { t } = useI18n()
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
    } catch {
      fallbackCopy(text) // clipboard API needs a secure context; plain-HTTP instances use the old way
    }
    setCopied(true)
    setTimeout(() => setCopied(false), 1500)
  }
  return (
    <Button variant="secondary" aria-label={name ?? (label ? `${t('common.copy')}: ${label}` : undefined)} onClick={copy}>
      {copied ? t('common.copied') : (caption ?? t('common.copy'))}
    </Button>
  )
}

function fallbackCopy(text: string): void {
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.className = 'offscreen'
  document.body.append(area)
  area.select()
  document.execCommand('copy')
  area.remove()
}

import { CopyButton } from '../../components/copy-button'

/**
 * An address on this instance to copy into a provider's dashboard (an OAuth callback, a payment notify or webhook):
 * `base` (the public address; this page's origin while it is unset, with `unsetNote` said) and the path.
 */
export function CallbackUrl({ base, path, label, unsetNote }: { base: string; path: string; label: string; unsetNote?: string }) {
  const url = `${(base || location.origin).replace(/\/+$/, '')}${path}`
  return (
    <div class="callback-url">
      <span class="muted">{label}</span>
      <code>{url}</code>
      <CopyButton text={url} label={label} />
      {!base && unsetNote && <p class="muted">{unsetNote}</p>}
    </div>
  )
}

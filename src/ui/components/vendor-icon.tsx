import { useEffect, useState } from 'preact/hooks'
import type { VendorId } from '../lib/vendors'

type Icons = Partial<Record<VendorId, string>>
let loading: Promise<Icons> | undefined
const loadIcons = () => (loading ??= import('./vendor-icons').then((module) => module.VENDOR_ICONS))

/** A vendor's mark (decorative: the vendor's name is always written beside it); a neutral dot until loaded or when unknown. */
export function VendorIcon({ vendor }: { vendor: VendorId }) {
  const [icons, setIcons] = useState<Icons>()
  useEffect(() => {
    let live = true
    void loadIcons().then((loaded) => live && setIcons(loaded))
    return () => {
      live = false
    }
  }, [])
  const svg = icons?.[vendor]
  // the markup is the icon set's own files, bundled at build time: no text from the server or a user
  if (svg) return <span class="vendor-icon" aria-hidden="true" dangerouslySetInnerHTML={{ __html: svg }} />
  return <span class="vendor-icon vendor-icon-none" aria-hidden="true" />
}

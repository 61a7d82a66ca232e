import { useEffect, useState } from 'preact/hooks'
import { CopyButton } from '../../components/copy-button'
import { useI18n } from '../../i18n'

/** The otpauth:// URI as a QR code, drawn as SVG in the browser by uqr (loaded when enrolment starts). */
export function QrCode({ text }: { text: string }) {
  const { t } = useI18n()
  const [svg, setSvg] = useState('')
  useEffect(() => {
    let live = true
    void import('uqr').then(({ renderSVG }) => live && setSvg(renderSVG(text, { border: 2 })))
    return () => {
      live = false
    }
  }, [text])
  // uqr's own markup from our own URI: no user-controlled HTML reaches it
  return <div class="qr-code" role="img" aria-label={t('twofa.card.qr')} style={{ width: '12rem' }} dangerouslySetInnerHTML={{ __html: svg }} />
}

/** Backup codes, shown once: copy them or download them as a text file. */
export function BackupCodes({ codes }: { codes: string[] }) {
  const { t } = useI18n()
  const text = codes.join('\n')
  const href = `data:text/plain;charset=utf-8,${encodeURIComponent(text + '\n')}`
  return (
    <div>
      <h3>{t('twofa.card.backupTitle')}</h3>
      <p class="alert alert-info">{t('twofa.card.backupOnce')}</p>
      <pre class="code-block">{text}</pre>
      <CopyButton text={text} name={t('twofa.card.copyCodes')} />{' '}
      <a class="btn btn-secondary" href={href} download="backup-codes.txt">
        {t('twofa.card.download')}
      </a>
    </div>
  )
}

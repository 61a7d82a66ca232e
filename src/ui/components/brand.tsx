import { useSession } from '../state/session'

/** The instance's logo (the operator's, else the built-in mark: both at /favicon.ico) and its name. */
export function Brand({ href }: { href: string }) {
  const { status } = useSession()
  return (
    <a class="brand" href={href}>
      <img class="brand-logo" src="/favicon.ico" alt="" width="24" height="24" />
      <span class="brand-name">{status?.system_name || 'Tollgate'}</span>
    </a>
  )
}

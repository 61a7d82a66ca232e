import { useEffect, useState } from 'preact/hooks'
import { api } from '../../api/client'

/** The groups an admin may put a user in (GroupRatio's and the channels'), for the group field's suggestions. */
export function useGroups(): string[] {
  const [groups, setGroups] = useState<string[]>([])
  useEffect(() => {
    api.get<Record<string, unknown>>('/api/user/self/groups').then(
      (data) => setGroups(Object.keys(data).sort()),
      () => setGroups([]),
    )
  }, [])
  return groups
}

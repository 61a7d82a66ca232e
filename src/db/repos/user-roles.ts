/** A user row's `role` and `status` values (new-api's numbers): 1 user, 10 admin, 100 root; 1 enabled, 2 disabled. */
export const Role = { user: 1, admin: 10, root: 100 } as const
export const UserStatus = { enabled: 1, disabled: 2 } as const

/** The database was written by a newer Tollgate (a migration this binary does not know): start-up stops, whatever the dialect. */
export class NewerDatabaseError extends Error {}

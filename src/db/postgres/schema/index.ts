// The PostgreSQL twin of src/db/schema: the same tables, column names and row types (tests/db/postgres/schema.test.ts).
export * from './users'
export * from './tokens'
export * from './options'
export * from './logs'
export * from './channels'
export * from './redemptions'
export * from './sessions'
export * from './bindings'

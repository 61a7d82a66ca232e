// The repositories' public face; the SQLite implementation lives in src/db/sqlite/repos/.
export * from '../sqlite/repos'

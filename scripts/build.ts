// Compile the gateway into one executable: dist/tollgate, with migrations (and later the UI) embedded.
import { MIGRATION_DIRS, renderMigrationIndex } from './embed-migrations'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

// both dialects' migration indexes (SQLite's and PostgreSQL's) must match their drizzle-kit journals
for (const dir of Object.values(MIGRATION_DIRS)) {
  const indexPath = join(dir, 'index.ts')
  if (readFileSync(indexPath, 'utf8') !== renderMigrationIndex(dir)) {
    console.error(`${indexPath} is stale: run \`bun run db:generate\` (or bun scripts/embed-migrations.ts)`)
    process.exit(1)
  }
}

// bun scripts/build.ts [outfile] [--target=bun-linux-arm64 …] [--sourcemap]: another platform's binary (scripts/release.ts
// builds them all); --sourcemap embeds source maps, for a build whose stack traces should name the TypeScript files
const args = process.argv.slice(2)
const outfile = args.find((a) => !a.startsWith('--')) ?? 'dist/tollgate'
const target = args.find((a) => a.startsWith('--target='))?.slice('--target='.length) as Bun.Build.CompileTarget | undefined
const result = await Bun.build({
  // the metering writer thread's entry is bundled alongside (Bun's rule for workers in executables)
  entrypoints: [join(import.meta.dir, '../src/index.ts'), join(import.meta.dir, '../src/db/sqlite/writer/metering-writer.worker.ts')],
  compile: target ? { outfile, target } : { outfile },
  // Elysia reads handler parameter names to decide what to parse (cookies, body): never rename identifiers.
  minify: { whitespace: true, syntax: true, identifiers: false },
  // No source maps by default: embedded, they were 6 MB of the binary (issue #30's budget: 7dfa491's binary + 3 MB).
  // Identifiers are kept (above), so a stack trace still names every function; --sourcemap adds the files and lines.
  sourcemap: args.includes('--sourcemap') ? 'linked' : 'none',
  bytecode: false,
  // the console's HTML import is bundled here too: its Markdown renderer stays a chunk of its own, loaded when first shown
  splitting: true,
})
if (!result.success) {
  for (const log of result.logs) console.error(log)
  process.exit(1)
}
// the size, to compare with issue #30's budget (tests/launch/footprint.test.ts checks it)
console.log(`built ${outfile} (${(Bun.file(outfile).size / 1e6).toFixed(2)} MB)`)

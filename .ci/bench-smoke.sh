#!/usr/bin/env bash
# Smoke test of the benchmark harness (bench/): run it in quick mode (tiny counts, seconds) and check that
# it completes and writes its JSON with every lane in it. No timing is asserted: CI machines vary.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
timeout 180 bun bench/run.ts --quick --out="$out/result.json" >"$out/table.md" 2>"$out/log" ||
  { echo "bench smoke: run failed"; tail -50 "$out/log"; exit 1; }
bun -e '
const r = JSON.parse(await Bun.file(process.argv[1]).text())
const lanes = new Set(r.rows.map((row) => row.lane.slice(0, 1)))
const missing = ["1", "2", "3", "4", "5"].filter((l) => !lanes.has(l))
if (missing.length) { console.error("bench smoke: no rows for lanes " + missing.join(",")); process.exit(1) }
console.log(`bench smoke ok: ${r.rows.length} rows in ${r.seconds} s (${r.gateway})`)
' "$out/result.json"

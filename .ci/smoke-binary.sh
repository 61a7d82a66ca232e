#!/usr/bin/env bash
# Start the compiled binary on a free port with a temp data dir, check /api/status, log in as root,
# restart it and check the session and data survived, then stop it cleanly.
set -euo pipefail
bin=$(realpath "$1")
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT

port=$(bun -e 'const s = Bun.serve({ port: 0, fetch: () => new Response() }); console.log(s.port); s.stop()')
base="http://127.0.0.1:$port"

start() {
  (cd "$dir" && ROOT_PASSWORD=smoke-password-1 HOST=127.0.0.1 WRITER_THREAD=true exec "$bin" --port "$port" --data-dir "$dir/data" >>"$dir/log" 2>&1) &
  pid=$!
  for _ in $(seq 1 100); do
    curl -fsS "$base/api/status" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  cat "$dir/log"; echo "binary did not start"; exit 1
}

stop() {
  kill -TERM "$pid"
  wait "$pid" || { echo "binary did not stop cleanly"; cat "$dir/log"; exit 1; }
}

"$bin" --version
start
# the console is embedded: its page and assets come from the binary alone, compressed and cached
page=$(curl -fsS "$base/tokens") || { echo "console page failed"; exit 1; }
echo "$page" | grep -q '<div id="app">' || { echo "console page is not the app: $page"; exit 1; }
for asset in $(echo "$page" | grep -o '/chunk-[a-z0-9]*\.\(js\|css\)'); do
  headers=$(curl -fsS -o /dev/null -D - -H 'accept-encoding: br' "$base$asset") || { echo "console asset $asset failed"; exit 1; }
  echo "$headers" | grep -qi '^content-encoding: br' || { echo "console asset $asset not compressed: $headers"; exit 1; }
  echo "$headers" | grep -qi '^cache-control: public, max-age=31536000, immutable' || { echo "console asset $asset not cacheable: $headers"; exit 1; }
done
echo "the console is served from the binary"
curl -fsS "$base/healthz" >/dev/null && curl -fsS "$base/readyz" >/dev/null || { echo "healthz/readyz failed"; cat "$dir/log"; exit 1; }
# read whole first: grep -q stops at the match and, under pipefail, curl's write into the closed pipe failed the step
metrics=$(curl -fsS "$base/metrics") || { echo "metrics failed"; exit 1; }
grep -q '^# TYPE tollgate_relay_requests_total counter' <<<"$metrics" || { echo "metrics lack the relay counter"; exit 1; }
"$bin" health --url "$base" >/dev/null || { echo "tollgate health failed"; exit 1; }
echo "healthz, readyz, metrics and the health command answer"
status=$(curl -fsS "$base/api/status") || { echo "status failed"; cat "$dir/log"; exit 1; }
echo "$status" | grep -q '"success":true' || { echo "bad status: $status"; exit 1; }
curl -fsS -c "$dir/cookies" -H 'content-type: application/json' \
  -d '{"username":"root","password":"smoke-password-1"}' "$base/api/user/login" >/dev/null ||
  { echo "root login failed"; cat "$dir/log"; exit 1; }
stop
start
self=$(curl -fsS -b "$dir/cookies" "$base/api/user/self") || { echo "self failed after restart"; cat "$dir/log"; exit 1; }
echo "$self" | grep -q '"username":"root"' || { echo "session lost after restart: $self"; exit 1; }
echo "login and session survive a restart"
created=$(curl -fsS -b "$dir/cookies" -H 'content-type: application/json' -d '{"name":"smoke","unlimited_quota":true}' "$base/api/token/")
key=$(echo "$created" | grep -o '"key":"sk-[A-Za-z0-9]*"' | cut -d'"' -f4)
[ -n "$key" ] || { echo "token creation failed: $created"; exit 1; }
models=$(curl -fsS -H "authorization: Bearer $key" "$base/v1/models")
echo "$models" | grep -q '"object":"list"' || { echo "relay /v1/models failed: $models"; exit 1; }
echo "a new token reaches the relay"
relayed=$(curl -sS -H "authorization: Bearer $key" -H 'content-type: application/json' \
  -d '{"model":"no-such-model","messages":[{"role":"user","content":"hi"}]}' "$base/v1/chat/completions")
echo "$relayed" | grep -q 'model not found' || { echo "relay POST did not reach the pipeline: $relayed"; cat "$dir/log"; exit 1; }
echo "a relay POST is parsed, authorized and routed"
# its refusal row is queued for the metering writer thread: stopping at once must still write it
stop
start
logged=$(curl -fsS -b "$dir/cookies" "$base/api/log/?model_name=no-such-model") || { echo "log query failed"; cat "$dir/log"; exit 1; }
echo "$logged" | grep -q '"model_name":"no-such-model"' || { echo "the refusal row was not written by the writer thread before stop: $logged"; cat "$dir/log"; exit 1; }
grep -q 'metering writer thread failed' "$dir/log" && { echo "the metering writer thread did not run in the binary"; cat "$dir/log"; exit 1; }
echo "the writer thread wrote the queued log row before the binary stopped"
stop
echo "smoke ok: $(echo "$status" | head -c 200)"

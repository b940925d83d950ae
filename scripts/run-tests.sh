#!/usr/bin/env bash
# `npm test`: installs the local servers, lints, checks the SDK's package, then runs every mocha
# tier in parallel workers (MOCHA_JOBS, default 3: most tests wait on servers and timers, so three
# workers keep two cores busy), then the money suites again against the bank simulator.
#
# Each worker starts its own servers once (test/support/servers.ts: free ports, temporary folders)
# and runs whole files one after another; mocha hands out files in the order given, so the files
# that take minutes go first (SLOW_FIRST) and the short ones fill the other workers meanwhile. At
# the end the reporter prints the closing "mocha: N passed, N failed" line (both runs) and the ten
# slowest files.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob

# Each step's wall time and how busy the machine's CPUs were meanwhile, on standard error: what a
# change to the suite's speed is measured by.
cpu_ticks() { awk '/^cpu /{print $2+$3+$4+$6+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat; }
timed() {
  local name=$1 started=$SECONDS before after
  shift
  before=$(cpu_ticks)
  "$@"
  after=$(cpu_ticks)
  echo "npm test: $name took $((SECONDS - started)) s, CPUs $(echo "$before $after" | awk '{d=$4-$2; printf "%d", d ? 100*($3-$1)/d : 0}')% busy" >&2
}

timed setup node --import tsx src/main/setup.ts
timed lint npm run -s lint >&2
timed sdk-package npm run -s test:sdk-package >&2

# Longest first (minutes each on this machine); a renamed file must be renamed here too.
SLOW_FIRST=(
  test/api/money-model.test.ts
  test/api/mandate-long-life.test.ts
  test/api/webhook-worker-crash.test.ts
  test/api/mandates.test.ts
  test/api/sweep-backlog.test.ts
  test/api/dev-stack.test.ts
  test/api/docs.test.ts
  test/store/ferretdb-differential.test.ts
  test/browser/dashboard.test.ts
  test/api/webhook-endpoint-health.test.ts
)
for f in "${SLOW_FIRST[@]}"; do
  [ -f "$f" ] || { echo "scripts/run-tests.sh: $f is gone: update SLOW_FIRST" >&2; exit 1; }
done
files=("${SLOW_FIRST[@]}")
for f in test/{unit,workflows,store,api,deploy,browser}/**/*.test.ts sdk/test/**/*.test.ts examples/*/test/**/*.test.ts; do
  [[ " ${SLOW_FIRST[*]} " == *" $f "* ]] || files+=("$f")
done

jobs=${MOCHA_JOBS:-3}
export MOCHA_TOTALS_FILE=test-output/mocha-totals.json MOCHA_FILE_TIMES_FILE=test-output/mocha-file-times.jsonl
rm -f "$MOCHA_TOTALS_FILE" "$MOCHA_FILE_TIMES_FILE"
MOCHA_TOTALS_MORE_TO_COME=1 timed "mocha ($jobs workers)" npx mocha --parallel --jobs "$jobs" "${files[@]}"
MOCHA_PRINT_SLOWEST=1 timed "the bank simulator's run" npm run -s test:bank-simulator

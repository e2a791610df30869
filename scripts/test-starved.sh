#!/usr/bin/env bash
# The suite on a starved machine: `npm test` and every process it starts pinned to one
# core (taskset), with stress-ng keeping that same core busy, so each test gets a fraction
# of what CI's slowest machine gives it. A test that passes only when the machine is quiet
# (a fixed wait, a timeout shorter than a slow start, a race) fails here; it is fixed, not
# retried. Arguments go to npm test; HANGAR_TEST_TIERS narrows the tiers as in npm test.
#   scripts/test-starved.sh                      # the whole suite (slow: about 3x npm test)
#   HANGAR_TEST_TIERS=e2e scripts/test-starved.sh
set -euo pipefail
cd "$(dirname "$0")/.."

CORE="${HANGAR_STARVED_CORE:-0}"
# One stress-ng CPU worker at full load beside the suite on the same core.
LOAD="${HANGAR_STARVED_LOAD:-100}"

if ! command -v stress-ng >/dev/null || ! command -v taskset >/dev/null; then
  if [[ "$(id -u)" == 0 ]]; then
    apt-get update -qq && apt-get install -y -qq stress-ng util-linux >/dev/null
  else
    echo "stress-ng and taskset are needed: sudo apt-get install stress-ng util-linux" >&2
    exit 1
  fi
fi

taskset -c "$CORE" stress-ng --cpu 1 --cpu-load "$LOAD" --quiet &
stress=$!
trap 'kill "$stress" 2>/dev/null || true' EXIT
echo "▶ npm test on core $CORE, beside stress-ng at ${LOAD}% of it"
taskset -c "$CORE" npm test -- "$@"

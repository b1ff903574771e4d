#!/usr/bin/env bash
# The advice's first measured remedy holds when applied: `rlsim run SCENARIO` with its advice on, then
# the command it printed for its first remedy run as printed (without advice), whose steady step time
# must be at most the one the advice printed (the trial is the same simulation, so they agree to the
# printed rounding). A run whose advice names no remedy passes when it says so. Fails (exit 1) with
# both figures.
#   check_first_remedy.sh RLSIM SCENARIO WORK_DIR
set -euo pipefail
rlsim=$1 scenario=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
RLSIM_NO_ADVICE= "$rlsim" run "$scenario" --quiet --out "$work/advised" >"$work/advised.txt"
if ! grep -q '^  1\. ' "$work/advised.txt"; then
  grep -q 'no change is advised' "$work/advised.txt" || { echo "no measured advice in the summary"; exit 1; }
  echo "no remedy advised"
  exit 0
fi
printed=$(grep -m1 '^  1\. ' "$work/advised.txt" | sed -E 's/.*: steady step ([0-9.]+) s .*/\1/')
command=$(grep -m1 -A1 '^  1\. ' "$work/advised.txt" | tail -1 | sed -E 's/^ +rlsim run //')
eval "\"$rlsim\" run $command --no-advice --quiet --out \"$work/applied\"" >/dev/null
applied=$(grep -o '"steady_mean": [0-9.e+-]*' "$work/applied/metrics.json" | head -1 | awk '{print $2}')
awk -v p="$printed" -v a="$applied" -v c="$command" 'BEGIN {
  if (a > p + 0.005) { printf "applied %s gives %.3f s, more than the %s s the advice printed\n", c, a, p; exit 1 }
  printf "first remedy: %s, printed %s s, applied %.3f s\n", c, p, a
}'

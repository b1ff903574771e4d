#!/usr/bin/env bash
# A comparison's ranking holds when the run is longer: `rlsim compare SCENARIO` at its own length and
# at 4x the steps, and every pair of policies whose steady step times are apart by more than their two
# 95 % intervals at the default length keeps its order at 4x. Pairs within each other's intervals are
# the ones compare itself calls open, so they may swap. Fails (exit 1) naming the pair.
#   check_ranking_stable.sh RLSIM SCENARIO WORK_DIR
set -euo pipefail
rlsim=$1 scenario=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
"$rlsim" compare "$scenario" --out "$work/default" >"$work/default.txt"
first_metrics=$(ls "$work"/default/*/metrics.json | head -1)
steps=$(grep -o '"steps": [0-9][0-9]*' "$first_metrics" | head -1 | grep -o '[0-9]*$')
"$rlsim" compare "$scenario" --set workload.steps=$((4 * steps)) --out "$work/long" >"$work/long.txt"

# policy -> "mean half" from compare.csv (columns: policy, rank, steady_step_time_s,
# steady_step_time_ci95_half_s, ...); the header names them, so a moved column fails loudly.
awk -F, -v steps="$steps" '
  FNR == 1 {
    if ($3 != "steady_step_time_s" || $4 != "steady_step_time_ci95_half_s") {
      print "unexpected compare.csv header in " FILENAME ": " $0; failed = 1; exit 1
    }
    run = (FILENAME ~ /\/default\//) ? "default" : "long"; next
  }
  { mean[run, $1] = $3; half[run, $1] = $4; if (run == "default") policies[++n] = $1 }
  END {
    if (failed) exit 1
    checked = 0
    for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) {
      a = policies[i]; b = policies[j]
      if (half["default", a] == "" || half["default", b] == "") continue
      gap = mean["default", a] - mean["default", b]
      if ((gap < 0 ? -gap : gap) <= half["default", a] + half["default", b]) continue
      if (!(("long", a) in mean) || !(("long", b) in mean)) continue
      ++checked
      long_gap = mean["long", a] - mean["long", b]
      if (gap * long_gap <= 0) {
        printf "%s and %s swap: %s %.2f s and %s %.2f s at %d steps (intervals +-%.2f, +-%.2f), %.2f s and %.2f s at %d\n",
               a, b, a, mean["default", a], b, mean["default", b], steps, half["default", a], half["default", b],
               mean["long", a], mean["long", b], 4 * steps
        bad = 1
      }
    }
    printf "%d pairs apart beyond their intervals at %d steps; %s\n", checked, steps, bad ? "some swapped at 4x" : "all kept their order at 4x"
    exit bad ? 1 : 0
  }' "$work/default/compare.csv" "$work/long/compare.csv"

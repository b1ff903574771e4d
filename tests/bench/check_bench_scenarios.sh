#!/usr/bin/env bash
# The benchmarks' own scenarios still load: tools/bench/rl-cluster.sh's cluster (rl-scale,
# cluster-scale) at both output lengths rl-scale runs, with the data plane on and off, and the
# serving scenario tools/bench/serve-scale writes. A rule that refuses input (memory, context
# window) must not leave a benchmark refusing its own.
#   check_bench_scenarios.sh RLSIM SOURCE_DIR
set -euo pipefail
rlsim="$1"
cd "$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source tools/bench/rl-cluster.sh
for tokens in 2048 8192; do
  for dataplane in true false; do
    rl_cluster_scenario 1 1 4 "$tokens" 1 "$dataplane" > "$work/rl.yaml"
    "$rlsim" validate "$work/rl.yaml"
  done
done
# serve-scale's scenario is the heredoc it writes, with its request count filled in.
sed -n '/^cat > "$work\/serve-scale.yaml" <<YAML$/,/^YAML$/p' tools/bench/serve-scale | sed '1d;$d' |
  sed 's/\$requests/100/' > "$work/serve.yaml"
grep -q '^kind: serve$' "$work/serve.yaml"
"$rlsim" validate "$work/serve.yaml"

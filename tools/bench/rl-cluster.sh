# Sourced by tools/bench/rl-scale and tools/bench/cluster-scale (not run on its own): the benchmarks'
# RL cluster shape and a timed run of it.
#   rl_cluster_scenario NODES_PER_POOL AGENT_HOSTS PROMPTS MEAN_OUTPUT_TOKENS STEPS DATAPLANE
# prints the scenario: NODES_PER_POOL rollout and as many train nodes of 8 H800 (so 16 GPUs per
# NODES_PER_POOL), AGENT_HOSTS agent hosts of 128 cores, PROMPTS × 8 trajectories × 4 turns a step,
# lognormal outputs of MEAN_OUTPUT_TOKENS, the data plane on (true) or off (false).
#   rl_timed_run YAML OUT   runs it pinned to one core; prints "wall_s peak_rss_kb execs messages cpu_s actors sleeps"
#   (cpu_s: user + system seconds, the fairer figure on a busy machine).

rl_cluster_scenario() {
  cat <<YAML
name: rl-scale
seed: 1
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H800, nodes: $1, gpus_per_node: 8}
    - {name: train, gpu: H800, nodes: $1, gpus_per_node: 8}
  links:
    - {between: [rollout, train], bandwidth: 3200Gbps, latency: 5us}
    - {between: [agents, rollout], bandwidth: 800Gbps, latency: 10us}
    - {between: [dataplane, rollout], bandwidth: 800Gbps, latency: 10us}
  agents: {hosts: $2, cores: 128}
  dataplane: {enabled: $6}
workload:
  steps: $5
  prompts_per_step: $3
  samples_per_prompt: 8
  turns: 4
  prompt_tokens: 512
  observation_tokens: 256
  output_tokens: {lognormal: {mean: $4, sigma: 0.5}, max: 65536}
  tool_latency: {uniform: {min: 1s, max: 5s}}
rollout: {pool: rollout, tp: 1, max_batch: 256, max_model_len: 131072}  # outputs reach 64K: YaRN's window
training: {pool: train, tp: 8, algorithm: grpo}
policy: {name: disaggregated}
YAML
}

rl_timed_run() {
  /usr/bin/time -f "%e %M %U %S" -o "$2.time" taskset -c 0 "$build/rlsim" run "$1" --out "$2" >/dev/null
  read -r wall rss user system < "$2.time"
  read -r execs messages actors sleeps < <(python3 -c "import json; e = json.load(open('$2/metrics.json'))['engine']; print(e['simgrid_execs'], e['simgrid_messages'], e['simgrid_actors'], e['simgrid_sleeps'])")
  echo "$wall $rss $execs $messages $(python3 -c "print(round($user + $system, 2))") $actors $sleeps"
}

// The cluster the transport tests send across: one rollout node of 8 GPUs, two agent hosts behind
// an 8 Gb/s link and the data-plane host behind a 100 Gb/s one.
#pragma once

namespace rlsim::test {

inline constexpr const char* kTransportCluster = R"(
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H20, nodes: 1, gpus_per_node: 8}
  nic: {bandwidth: 400Gbps, latency: 2us}
  links:
    - {between: [agents, rollout], bandwidth: 8Gbps, latency: 10us}
    - {between: [dataplane, rollout], bandwidth: 100Gbps, latency: 10us}
  agents: {hosts: 2, cores: 8}
workload: {prompts_per_step: 1}
)";

}  // namespace rlsim::test

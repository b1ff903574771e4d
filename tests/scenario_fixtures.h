// Inline scenario texts shared by tests of different layers (loader, engine, CLI), so one fixture
// is written once. Each leaves `workload` to the test, which appends its own.
#pragma once

namespace rlsim::test {

/// Rollout on H100 (the committed profile's card), training on H20 (priced by the datasheet):
/// the profile prices one pool and not the other.
inline const char* const kProfiledH100 = R"(model: llama-2-7b
profile: calibrate/profiles/h100.yaml
cluster:
  pools:
    - {name: rollout, gpu: H100, nodes: 1}
    - {name: train, gpu: H20, nodes: 1}
  links:
    - {between: [rollout, train], bandwidth: 400Gbps}
    - {between: [agents, rollout], bandwidth: 100Gbps}
    - {between: [dataplane, rollout], bandwidth: 100Gbps}
)";

}  // namespace rlsim::test

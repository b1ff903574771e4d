// SM counts and L2 sizes from NVIDIA's architecture whitepapers (H100: "NVIDIA H100 Tensor Core GPU
// Architecture", SXM5 has 132 SMs and 50 MB L2; A100: "NVIDIA A100 Tensor Core GPU Architecture",
// 108 SMs and 40 MB L2). H800 and H200 share the H100 SXM die configuration; A800 the A100's.
#include "calibrate/device_facts.h"

#include <map>

namespace rlsim {

std::optional<DeviceFacts> known_device_facts(const std::string& card) {
  static const std::map<std::string, DeviceFacts> facts{
      {"H100", {132, 50e6, "NVIDIA H100 architecture whitepaper (SXM5)"}},
      {"H800", {132, 50e6, "same die configuration as H100 SXM5"}},
      {"H200", {132, 50e6, "same die configuration as H100 SXM5"}},
      {"A100", {108, 40e6, "NVIDIA A100 architecture whitepaper"}},
      {"A800", {108, 40e6, "same die configuration as A100"}},
  };
  auto it = facts.find(card);
  if (it == facts.end()) return std::nullopt;
  return it->second;
}

}  // namespace rlsim

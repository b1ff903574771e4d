// SM counts and L2 sizes from NVIDIA's architecture whitepapers (H100: "NVIDIA H100 Tensor Core GPU
// Architecture", SXM5 has 132 SMs and 50 MB L2; A100: "NVIDIA A100 Tensor Core GPU Architecture",
// 108 SMs and 40 MB L2). H800 and H200 share the H100 SXM die configuration; A800 the A100's. B200:
// 148 SMs enabled (74 of 80 on each of its two dies) and 126 MB of L2, as measured by Chips and Cheese
// ("Nvidia's B200: Keeping the CUDA Juggernaut Rolling", chipsandcheese.com, 2025). RTX PRO 6000
// Blackwell (GB202): 188 of the die's 192 SMs and its full 128 MB of L2, as NVIDIA announced it at
// GTC 2025 (the RTX 5090 has 170 SMs and 96 MB).
#include "calibrate/device_facts.h"

#include <map>

namespace rlsim {

std::optional<DeviceFacts> known_device_facts(const std::string& card) {
  static const std::map<std::string, DeviceFacts> facts{
      {"H100", {132, 50e6, "NVIDIA H100 architecture whitepaper (SXM5)"}},
      {"H800", {132, 50e6, "same die configuration as H100 SXM5"}},
      {"H200", {132, 50e6, "same die configuration as H100 SXM5"}},
      {"B200", {148, 126e6, "Chips and Cheese, B200 (2 dies x 74 SMs, 126 MB L2)"}},
      {"RTXPRO6000", {188, 128e6, "NVIDIA GTC 2025 announcement (GB202, 188 SMs, 128 MB L2)"}},
      {"A100", {108, 40e6, "NVIDIA A100 architecture whitepaper"}},
      {"A800", {108, 40e6, "same die configuration as A100"}},
  };
  auto it = facts.find(card);
  if (it == facts.end()) return std::nullopt;
  return it->second;
}

}  // namespace rlsim

// Which card should train and which should decode, from the roofline: training is dense GEMMs
// (compute-bound, far right of every ridge), decode is dominated by streaming weights and KV
// (memory-bound). So the card with the higher ridge point (more FLOP/s per byte/s of memory
// bandwidth) trains, and the card with the lower ridge — the bandwidth-rich one per FLOP — decodes.
// Ties (same card) leave no preference. Per-dollar figures say what each phase costs on each card.
#pragma once

#include <string>
#include <vector>

#include "models/hardware.h"
#include "models/precision.h"

namespace rlsim {

struct CardAffinity {
  std::string card;
  double ridge_flop_per_byte = 0.0;
  double tflops_per_usd_hour = 0.0;    ///< training throughput per dollar (peak, `precision`)
  double mem_tbps_per_usd_hour = 0.0;  ///< decode throughput per dollar (memory bandwidth)
};

struct PhasePreference {
  std::vector<CardAffinity> cards;  ///< in the order given
  std::string train_card;           ///< highest ridge; empty when all ridges are equal
  std::string rollout_card;         ///< lowest ridge; empty when all ridges are equal
  std::string reason;
};

PhasePreference phase_preference(const std::vector<HardwareSpec>& cards, Precision precision);

}  // namespace rlsim

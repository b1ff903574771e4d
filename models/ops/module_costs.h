// The ops of one decode iteration grouped into the modules a model architect talks about (query
// and KV projections, attention core, output projection, dense FFN, shared and routed experts,
// router, lm_head, norms), with their FLOPs, bytes and arithmetic intensity summed over layers,
// and each module's bound on a card. The `rlsim roofline --model` command prints these.
#pragma once

#include <string>
#include <vector>

#include "models/cost/roofline.h"
#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/ops/layer_ops.h"

namespace rlsim {

struct ModuleCost {
  std::string name;
  double flops = 0.0;
  double bytes = 0.0;
  Precision compute = Precision::bf16;  ///< math precision of the module's largest op

  double arithmetic_intensity() const { return bytes > 0.0 ? flops / bytes : 0.0; }
  /// Bound on `card`, against its ridge at this module's math precision (16-bit fallback).
  Bound bound_on(const HardwareSpec& card) const;
};

/// Modules of `pass` in a fixed order; modules the model lacks (router of a dense model) are left out.
std::vector<ModuleCost> module_costs(const ModelArch& arch, const ForwardPass& pass);

}  // namespace rlsim

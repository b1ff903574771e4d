// The parameters the asynchronous policies (overlap, streaming, labels) share: how many weight
// versions rollout may run ahead of the trainer, and how long an instance pauses to load new
// weights. Declared once here (key, default, range, help); each policy lists them in its
// registration and reads them into a WeightLag when it is made.
#pragma once

#include "models/registry/param_schema.h"

namespace rlsim {

inline ParamSpec max_staleness_param() {
  return ParamSpec::integer(
      "max_staleness", 1, 0, 1000,
      "weight versions rollout may lag the trainer: more overlap, more off-policy tokens");
}

inline ParamSpec weight_swap_param() {
  return ParamSpec::quantity_of("weight_swap", Quantity::duration, 0.0,
                                "pause of an instance to load staged weights (0 = instant swap)", true);
}

/// The values of max_staleness_param() and weight_swap_param() for one policy.
struct WeightLag {
  explicit WeightLag(const ParamValues& params)
      : max_staleness(static_cast<int>(params.integer("max_staleness"))),
        weight_swap_s(params.number("weight_swap")) {}

  int max_staleness;
  double weight_swap_s;
};

}  // namespace rlsim

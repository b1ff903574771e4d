// Nelder–Mead simplex minimiser: derivative-free, deterministic (fixed start, fixed steps), good
// enough for the handful of parameters a kernel model has. Objectives are piecewise smooth (the
// tiled roofline takes minima and ceilings), which rules out gradient methods.
#pragma once

#include <functional>
#include <vector>

namespace rlsim {

struct NelderMeadOptions {
  double initial_step = 0.5;   ///< size of the first simplex along each axis
  int max_evaluations = 4000;  ///< per restart
  int restarts = 2;            ///< re-run from the best point with a fresh simplex (escapes collapse)
  double tolerance = 1e-10;    ///< stop when the simplex's values differ by less than this
};

struct NelderMeadResult {
  std::vector<double> x;
  double value = 0.0;
  int evaluations = 0;
};

NelderMeadResult minimize_nelder_mead(const std::function<double(const std::vector<double>&)>& f,
                                      std::vector<double> start, const NelderMeadOptions& options = {});

}  // namespace rlsim

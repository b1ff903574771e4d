// The Nelder–Mead simplex method (standard coefficients: reflect 1, expand 2, contract 0.5, shrink 0.5).
#include "calibrate/nelder_mead.h"

#include <algorithm>
#include <numeric>

namespace rlsim {
namespace {

struct Vertex {
  std::vector<double> x;
  double value;
};

std::vector<double> along(const std::vector<double>& from, const std::vector<double>& to, double t) {
  std::vector<double> out(from.size());
  for (size_t i = 0; i < from.size(); ++i) out[i] = from[i] + t * (to[i] - from[i]);
  return out;
}

}  // namespace

NelderMeadResult minimize_nelder_mead(const std::function<double(const std::vector<double>&)>& f,
                                      std::vector<double> start, const NelderMeadOptions& options) {
  const size_t n = start.size();
  NelderMeadResult result{start, f(start), 1};
  for (int round = 0; round <= options.restarts; ++round) {
    std::vector<Vertex> simplex;
    simplex.push_back({result.x, result.value});
    for (size_t i = 0; i < n; ++i) {
      std::vector<double> x = result.x;
      x[i] += options.initial_step;
      simplex.push_back({x, f(x)});
    }
    int evaluations = static_cast<int>(n);
    auto by_value = [](const Vertex& a, const Vertex& b) { return a.value < b.value; };
    while (evaluations < options.max_evaluations) {
      std::stable_sort(simplex.begin(), simplex.end(), by_value);
      if (simplex.back().value - simplex.front().value < options.tolerance) break;
      std::vector<double> centroid(n, 0.0);
      for (size_t v = 0; v < n; ++v) {
        for (size_t i = 0; i < n; ++i) centroid[i] += simplex[v].x[i] / static_cast<double>(n);
      }
      Vertex& worst = simplex.back();
      const std::vector<double> reflected = along(centroid, worst.x, -1.0);
      const double fr = f(reflected);
      ++evaluations;
      if (fr < simplex.front().value) {
        const std::vector<double> expanded = along(centroid, worst.x, -2.0);
        const double fe = f(expanded);
        ++evaluations;
        worst = fe < fr ? Vertex{expanded, fe} : Vertex{reflected, fr};
      } else if (fr < simplex[n - 1].value) {
        worst = {reflected, fr};
      } else {
        const bool outside = fr < worst.value;
        const std::vector<double> contracted = along(centroid, outside ? reflected : worst.x, 0.5);
        const double fc = f(contracted);
        ++evaluations;
        if (fc < std::min(fr, worst.value)) {
          worst = {contracted, fc};
        } else {
          for (size_t v = 1; v <= n; ++v) {
            simplex[v].x = along(simplex[0].x, simplex[v].x, 0.5);
            simplex[v].value = f(simplex[v].x);
            ++evaluations;
          }
        }
      }
    }
    std::stable_sort(simplex.begin(), simplex.end(), by_value);
    result.evaluations += evaluations;
    if (simplex.front().value <= result.value) {
      result.x = simplex.front().x;
      result.value = simplex.front().value;
    }
  }
  return result;
}

}  // namespace rlsim

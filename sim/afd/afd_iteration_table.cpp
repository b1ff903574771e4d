// Building the AFD iteration table in child processes, and reading it back by interpolation.
#include "sim/afd/afd_iteration_table.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "sim/afd/afd_simulation.h"

namespace rlsim {
namespace {

constexpr double kGridContexts[] = {128, 1024, 8192, 65536};

std::vector<int64_t> grid_batches(int64_t max_batch) {
  std::vector<int64_t> batches;
  for (int64_t b = 1; b < max_batch; b *= 2) batches.push_back(b);
  batches.push_back(max_batch);
  return batches;
}

struct Child {
  pid_t pid = 0;
  int read_fd = -1;
  size_t point = 0;
};

// Forks a child that simulates one grid point and writes its TPOT (or an error) to a pipe.
Child start_point(const AfdScenario& point_scenario, size_t point) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("AFD iteration table: pipe failed");
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("AFD iteration table: fork failed");
  if (pid == 0) {
    ::close(fds[0]);
    std::string answer;
    int code = 0;
    try {
      char text[64];
      std::snprintf(text, sizeof text, "%.17g", simulate_afd(point_scenario).metrics.tpot_s);
      answer = text;
    } catch (const std::exception& e) {
      answer = e.what();
      code = 1;
    }
    if (::write(fds[1], answer.data(), answer.size()) < 0) code = 1;
    ::close(fds[1]);
    std::_Exit(code);
  }
  ::close(fds[1]);
  return Child{pid, fds[0], point};
}

// Waits for `child` and returns the seconds it simulated.
double finish_point(const Child& child) {
  std::string answer;
  char buffer[256];
  ssize_t n = 0;
  while ((n = ::read(child.read_fd, buffer, sizeof buffer)) > 0) answer.append(buffer, static_cast<size_t>(n));
  ::close(child.read_fd);
  int status = 0;
  ::waitpid(child.pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("AFD iteration table: the layer-level simulation of a grid point failed: " + answer);
  }
  return std::strtod(answer.c_str(), nullptr);
}

double lerp(double x0, double y0, double x1, double y1, double x) {
  return x1 == x0 ? y0 : y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

}  // namespace

AfdScenario afd_point_scenario(const Scenario& s, int64_t batch, int64_t context) {
  assert(s.rollout.afd && "afd_point_scenario needs rollout.afd");
  const AfdRolloutSpec& a = *s.rollout.afd;
  AfdScenario point;
  point.name = s.name + "-afd-point";
  point.file = s.file;
  point.seed = s.seed;
  point.model = s.model;
  point.cluster = s.cluster;
  point.cost_model = s.cost_model;
  point.cost_options.profile = s.profile;
  AfdDeploymentSpec& d = point.afd;
  d.attention_pool = s.rollout.pool;
  d.ffn_pool = a.ffn_pool;
  d.attention_gpus = a.attention_gpus;
  d.ffn_gpus = a.ffn_gpus;
  d.micro_batches = static_cast<int>(std::min<int64_t>(a.micro_batches, batch));
  d.batch = batch;
  d.context = context;
  d.precisions.weights = s.rollout.weights;
  d.precisions.kv = s.rollout.kv_cache;
  d.precisions.dispatch = a.dispatch;
  d.precisions.combine = a.combine;
  return point;
}

AfdIterationTable AfdIterationTable::build(const Scenario& scenario, int jobs) {
  AfdIterationTable table;
  table.batches_ = grid_batches(scenario.rollout.max_batch);
  table.contexts_.assign(std::begin(kGridContexts), std::end(kGridContexts));
  const size_t points = table.batches_.size() * table.contexts_.size();
  table.seconds_.assign(points, 0.0);
  std::vector<Child> running;
  auto reap_one = [&]() {
    const Child child = running.front();
    running.erase(running.begin());
    table.seconds_[child.point] = finish_point(child);
  };
  for (size_t point = 0; point < points; ++point) {
    if (static_cast<int>(running.size()) >= std::max(1, jobs)) reap_one();
    const int64_t batch = table.batches_[point / table.contexts_.size()];
    const auto context = static_cast<int64_t>(table.contexts_[point % table.contexts_.size()]);
    running.push_back(start_point(afd_point_scenario(scenario, batch, context), point));
  }
  while (!running.empty()) reap_one();
  return table;
}

double AfdIterationTable::at_batch(size_t b, double context) const {
  size_t c = 1;
  while (c + 1 < contexts_.size() && contexts_[c] < context) ++c;
  // Below the first point and past the last, the nearest segment is extended.
  return std::max(0.0, lerp(contexts_[c - 1], at(b, c - 1), contexts_[c], at(b, c), context));
}

double AfdIterationTable::seconds(int64_t batch, double context) const {
  assert(batch >= 1 && "a decode iteration needs a sequence");
  const auto upper = std::lower_bound(batches_.begin(), batches_.end(), batch);
  if (upper == batches_.end()) return at_batch(batches_.size() - 1, context);  // above max_batch: the largest
  const auto b = static_cast<size_t>(upper - batches_.begin());
  if (*upper == batch || b == 0) return at_batch(b, context);
  return lerp(static_cast<double>(batches_[b - 1]), at_batch(b - 1, context), static_cast<double>(batches_[b]),
              at_batch(b, context), static_cast<double>(batch));
}

}  // namespace rlsim

// The requests of a serving benchmark, planned before the run from the workload and the run's
// seeded engine: each request's tokens and, for open loop and trace replay, its arrival time.
#pragma once

#include <random>
#include <vector>

#include "sim/scenario/serve_spec.h"

namespace rlsim {

struct PlannedRequest {
  int id = 0;              ///< send order, from 0
  double arrival_s = 0.0;  ///< open loop and trace; the closed loop sends when a client is free
  double prompt_tokens = 0.0;
  double output_tokens = 1.0;
  double shared_prefix_tokens = 0.0;  ///< the first prompt tokens that are shared prompt `prefix_group`
  int prefix_group = -1;              ///< -1: no shared prefix
};

/// `workload.requests` requests: a trace's rows as they are; otherwise tokens drawn per request
/// from the distributions, and for Poisson arrivals exponential gaps of mean 1 / rate after a first
/// request at time 0. With a shared prefix, request k has system prompt k mod groups, at most its
/// prompt less one token. With a prompt pool, request k's prompt is an entry drawn uniformly from
/// the pool (its own seeded stream), all of it but the last token the entry's shared prefix.
std::vector<PlannedRequest> plan_requests(const ServeWorkloadSpec& workload, std::mt19937_64& rng);

}  // namespace rlsim

// `rlsim calibrate --format verl`: a whole RL run's terms (RlRunTerms) fitted from its per-step
// log (calibrate/verl_metrics.h) and the scenario that describes the run. Each step of the log is
// simulated on its own (one synchronous step, the output and prompt length distributions stretched
// to that step's logged means), and each phase's efficiency is rlsim's time over the logged time,
// summed over the fitted steps, refined over three rounds of simulation with the terms found so far
// (the DP exchange and switches are not scaled, so one ratio is not exact). Every fifth step is held
// out and scored by the fitted terms, and without them.
#pragma once

#include <string>
#include <vector>

#include "models/cost/profile.h"
#include "sim/scenario/scenario_loader.h"

namespace rlsim {

struct RlRunRequest {
  std::string scenario;  ///< the scenario file describing the run
  LoadOptions options;   ///< its --set / --unset
  std::string log;       ///< the run's metrics (console log, JSON lines or CSV)
  std::string date;      ///< for a new profile; empty: "unknown"
  int sm_count = 0;      ///< for a new profile: the card's SMs (0: as known for the card, else 0)
  int jobs = 1;          ///< simulations at once (one process each)
  bool progress = true;  ///< progress line with an ETA on a terminal
  std::string card;      ///< --hardware: must be the training pool's card; empty: whichever it is
};

/// One phase as the fit saw it: means over the fitted steps, and errors over the held-out ones.
struct RlRunPhase {
  std::string name;             ///< gen, forward, update, step
  std::string logged_as;        ///< the verl keys it sums, e.g. "timing_s/old_log_prob + timing_s/ref"
  double logged_s = 0.0;        ///< mean over the fitted steps
  double uncalibrated_s = 0.0;  ///< rlsim's mean over the same steps without the terms
  double calibrated_s = 0.0;    ///< and with them
  double efficiency = 1.0;      ///< the fitted term (step: none)
  double held_out_mape = 0.0;   ///< with the terms, on the held-out steps (0 when none)
  double held_out_uncalibrated_mape = 0.0;
};

struct RlRunCalibration {
  HardwareProfile profile;  ///< the scenario's profile (or a new one for the card) with rl_run set
  std::vector<RlRunPhase> phases;
  int log_steps = 0;
  int fit_steps = 0;       ///< simulated to fit (at most 40, evenly spread)
  int held_out_steps = 0;  ///< simulated to score (at most 20)
  int simulations = 0;
  std::vector<std::string> notes;  ///< what the fit could not use, for the summary
};

/// InputError (FILE:LINE:COL) when the scenario cannot describe the log: an asynchronous policy, a
/// pass the log times that the scenario does not run (or the reverse), a logged mean length the
/// scenario's distribution cannot reach.
RlRunCalibration calibrate_rl_run(const RlRunRequest& request);

}  // namespace rlsim

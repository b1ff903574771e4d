// One prefill or decode iteration with the engine's terms, from the catalog and an optional profile.
#include "tools/cli/cost_forward.h"

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "models/cost/roofline.h"
#include "models/tensor_parallel.h"
#include "models/timing/engine_overhead.h"
#include "models/timing/pipeline_parallel.h"
#include "sim/scenario/context_window_check.h"
#include "sim/scenario/profile_loader.h"
#include "sim/scenario/profile_range_check.h"
#include "sim/scenario/scenario.h"
#include "tools/cli/catalog_args.h"
#include "tools/cli/command.h"
#include "tools/cli/iteration_fit.h"
#include "tools/cli/iteration_pricing.h"
#include "tools/report/pricing_text.h"

namespace rlsim {

void ForwardCost::add_to(CLI::App* cost) {
  sub_ =
      prefill_
          ? cost->add_subcommand("prefill", "One prefill iteration of a model on a TP group, engine included")
          : cost->add_subcommand("decode", "One decode iteration of a model on a TP group, engine included");
  target_.add_to(sub_);
  sub_->add_option("--model", model_, "Model from the catalog (rlsim list models)")->required();
  sub_->add_option("--tp", tp_, "Tensor-parallel GPUs (of each pipeline stage)")->check(CLI::Range(1, 1024));
  sub_->add_option("--pp", pp_,
                   "Pipeline stages (default 1): the batch runs as pp micro-batches, and the time is one "
                   "round, every sequence one token further")
      ->check(CLI::Range(1, 1024));
  sub_->add_option("--batch", batch_, prefill_ ? "Sequences prefilled together" : "Sequences decoding")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
  if (prefill_) {
    sub_->add_option("--prompt", prompt_, "New tokens of each sequence")
        ->required()
        ->check(CLI::Range(int64_t{1}, int64_t{1} << 24));
    sub_->add_option("--context", context_, "Tokens already cached for each sequence (default 0)")
        ->check(CLI::Range(int64_t{0}, int64_t{1} << 30));
  } else {
    sub_->add_option("--context", context_, "Context tokens of each sequence")
        ->required()
        ->check(CLI::Range(int64_t{0}, int64_t{1} << 30));
  }
  sub_->add_option("--kv-cache", kv_cache_, "KV-cache precision (default bf16)");
  sub_->add_option("--weights", weights_, "Weight precision (default bf16)");
  sub_->add_option("--engine", engine_,
                   "Engine preset (scenarios/catalog/engines.yaml; default " + RolloutSpec{}.engine + ")");
  sub_->footer(prefill_
                   ? "Example:\n  rlsim cost prefill --model llama-2-70b --hardware H100 --tp 8 --batch 1 "
                     "--prompt 512"
                   : "Example:\n  rlsim cost decode --model llama-2-70b --hardware H100 --tp 8 --batch 64 "
                     "--context 512 --profile calibrate/profiles/h100.yaml");
}

int ForwardCost::run(const Catalog& catalog) const {
  const HardwareSpec& card = catalog.card(target_.hardware, flag_location("--hardware"));
  const ModelArch& model = catalog.model(model_, flag_location("--model"));
  if (const std::string problem = tensor_parallel_problem(model, tp_); !problem.empty()) {
    throw InputError(flag_location("--tp"), problem + "; tp values up to 16 that split it: " +
                                                tensor_parallel_degrees_text(model, 16));
  }
  if (pp_ > model.layers) {
    throw InputError(flag_location("--pp"), "pp " + std::to_string(pp_) +
                                                " leaves a stage without a layer: " + model.name + " has " +
                                                std::to_string(model.layers) + " layers");
  }
  const std::string engine_name = engine_.empty() ? RolloutSpec{}.engine : engine_;
  EngineOverhead engine = catalog.engine(engine_name, flag_location("--engine"));
  const Precision weights = precision_option(weights_, "--weights");
  const Precision kv = precision_option(kv_cache_, "--kv-cache");
  // What no engine could run is refused, as a scenario's instances are.
  check_within_context_window(model, static_cast<double>(context_ + (prefill_ ? prompt_ : 1)),
                              prefill_ ? "--context + --prompt" : "--context and the token decoded",
                              flag_location(prefill_ && context_ == 0 ? "--prompt" : "--context"));
  check_iteration_fits(model, card,
                       {tp_, pp_, weights, kv, batch_, context_ + (prefill_ ? prompt_ : 1),
                        prefill_ ? "context + prompt" : "context + the token decoded"});
  const auto cost = target_.cost_model(card);
  // As a scenario's instances: the profile's engine terms and measured all-reduces for its card.
  std::optional<HardwareProfile> profile;
  if (!target_.profile.empty()) {
    profile = load_profile(target_.profile);
    check_profile_engines(*profile, catalog);
    engine = profile->engine.applied_to(engine);
  }
  std::vector<std::string> outside;  // where the profile's engine terms extrapolate
  if (profile) {
    outside = engine_range_notes({batch_, tp_, context_ + (prefill_ ? prompt_ : 1), "--batch", "--tp",
                                  prefill_ ? "--context + --prompt" : "--context + 1"},
                                 card.name, *profile);
  }
  const TpAllReduce allreduce = pool_tp_allreduce(profile ? &*profile : nullptr, card, engine.name, tp_);
  const IterationQuery query{tp_, batch_, prompt_, context_, prefill_, weights, kv, pp_};
  const PricedIteration priced = price_iteration(query, model, card, *cost, engine, allreduce);
  const ForwardBatch& batch = priced.batch;
  IterationTerms t = iteration_terms(engine, priced.shape, priced.kernels_s, priced.allreduce_s);
  t.pipeline_s = round_seconds(t, priced.sends_s, priced.batch, model.layers, pp_) - t.total_s();
  const char* phase = prefill_ ? "prefill" : "decode";
  if (target_.json) {
    nlohmann::ordered_json out;
    out["phase"] = phase;
    out["model"] = model.name;
    out["hardware"] = card.name;
    out["tp"] = tp_;
    out["pp"] = pp_;
    out["batch"] = batch_;
    out["tokens"] = batch.tokens();
    out["engine"] = engine.name;
    out["cost_model"] = cost->name();
    out["weights"] = to_string(weights);
    // The precision the weights are multiplied in: the 16-bit path where the card has none of theirs.
    out["weights_multiplied_as"] = to_string(effective_compute_precision(card, weights));
    out["seconds"] = t.total_s();
    out["kernels_s"] = t.kernels_s;
    out["allreduce_s"] = t.allreduce_s;
    out["pipeline_s"] = t.pipeline_s;
    out["launch_s"] = t.launch_s;
    out["cpu_s"] = t.cpu_s;
    out["cuda_graph"] = t.cuda_graph;
    out["cpu_overlapped"] = t.cpu_overlapped;
    out["allreduce_measured"] = allreduce.nccl.has_value() || allreduce.graph || allreduce.eager;
    out["allreduce_source"] = allreduce.source(tp_, t.cuda_graph);
    if (!outside.empty()) out["outside_fitted_range"] = outside;
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }
  auto line = [](const std::string& what, double seconds, const std::string& note) {
    std::cout << "  " << std::left << std::setw(16) << what << std::setw(12)
              << readable(seconds, Quantity::duration) << note << "\n";
  };
  std::cout << phase << " of " << model.name << " on " << tp_ * pp_ << " x " << card.name
            << (pp_ > 1 ? " (tp " + std::to_string(tp_) + " × pp " + std::to_string(pp_) + ")" : "")
            << ", batch " << batch_ << " (" << batch.tokens() << " tokens"
            << (pp_ > 1 ? "; a round of " + std::to_string(filled_micro_batches(batch, pp_)) +
                              " micro-batch(es), the largest " + std::to_string(priced.shape.tokens) +
                              " tokens through every stage"
                        : "")
            << "), engine " << engine.name << ": " << readable(t.total_s(), Quantity::duration) << "\n";
  line("kernels", t.kernels_s, target_.profile.empty() ? "datasheet roofline" : "calibrated profile");
  for (const std::string& note : outside)
    std::cout << "    the profile's engine terms extrapolate at " << note << "\n";
  if (const std::string note = weight_only_note(card, weights); !note.empty())
    std::cout << "    " << note << "\n";
  line("TP all-reduce", t.allreduce_s, std::string(allreduce.source(tp_, t.cuda_graph)));
  if (pp_ > 1)
    line("pipeline", t.pipeline_s,
         "stage sends, and the pace of the largest stage or the CPU beyond one micro-batch's trip");
  line(t.cuda_graph ? "graph gaps" : "launch gaps", t.launch_s,
       t.cuda_graph ? "CUDA-graph replay" : "eager launches not hidden by the kernels");
  line("CPU", t.cpu_s, t.cpu_overlapped ? "overlapped with the GPU: max(GPU, CPU)" : "on the critical path");
  return kExitOk;
}

}  // namespace rlsim

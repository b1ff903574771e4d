// `rlsim cost <op> --hardware H [--profile P] ...`: the predicted time of one op (GEMM, decode or
// prefill attention), one all-reduce, or one engine iteration (prefill, decode: cost_forward.h) on
// a card, from a calibrated profile when given, else from the datasheet roofline. Answers for any
// shape, measured or not.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "models/cost/cost_model_registry.h"
#include "models/cost/profiled_cost_model.h"
#include "models/tensor_parallel.h"
#include "models/timing/collectives.h"
#include "models/units.h"
#include "sim/scenario/profile_loader.h"
#include "tools/cli/catalog_args.h"
#include "tools/cli/command.h"
#include "tools/cli/cost_forward.h"
#include "tools/cli/cost_target.h"

namespace rlsim {
namespace {

using Json = nlohmann::ordered_json;

const char* price_source_note(PriceSource source) {
  switch (source) {
    case PriceSource::measured: return "measured shape and token count";
    case PriceSource::interpolated: return "measured shape, interpolated between token counts";
    case PriceSource::fitted: return "fitted model";
  }
  return "fitted model";
}

struct AttentionFlags {
  int64_t batch = 1, q_len = 1, kv_len = 4096;
  int q_heads = 32, kv_heads = 8, head_dim = 128, qk_head_dim = 0, v_head_dim = 0;
  std::string dtype = "bf16", kv_dtype;

  void add_to(CLI::App* sub, bool prefill) {
    sub->add_option("--batch", batch, "Sequences")->check(CLI::Range(int64_t{1}, int64_t{1} << 24));
    if (prefill)
      sub->add_option("--q-len", q_len, "Query tokens per sequence")
          ->check(CLI::Range(int64_t{1}, int64_t{1} << 24));
    sub->add_option("--kv-len", kv_len,
                    prefill ? "Keys per sequence (default: --q-len)" : "Context tokens in the KV cache")
        ->check(CLI::Range(int64_t{1}, int64_t{1} << 30));
    sub->add_option("--q-heads", q_heads, "Query heads on this GPU")->check(CLI::Range(1, 1 << 16));
    sub->add_option("--kv-heads", kv_heads, "KV heads on this GPU (1 = MQA / absorbed MLA)")
        ->check(CLI::Range(1, 1 << 16));
    sub->add_option("--head-dim", head_dim, "Head dim of q, k and v")->check(CLI::Range(1, 1 << 16));
    sub->add_option("--qk-head-dim", qk_head_dim, "q·k dim when it differs (MLA: latent + rope)")
        ->check(CLI::Range(1, 1 << 16));
    sub->add_option("--v-head-dim", v_head_dim, "v dim when it differs (MLA: latent)")
        ->check(CLI::Range(1, 1 << 16));
    sub->add_option("--dtype", dtype, "Compute precision");
    if (!prefill) sub->add_option("--kv-dtype", kv_dtype, "KV-cache precision (default: --dtype)");
  }
  AttentionShape shape(bool prefill) const {
    if (const std::string problem = head_grouping_problem(q_heads, kv_heads); !problem.empty())
      throw InputError(flag_location("--kv-heads"),
                       "expected K/V heads that group the query heads: " + problem);
    AttentionShape s;
    s.batch = batch;
    s.q_len = prefill ? q_len : 1;
    s.kv_len = kv_len;
    s.q_heads = q_heads;
    s.kv_heads = kv_heads;
    s.qk_head_dim = qk_head_dim > 0 ? qk_head_dim : head_dim;
    s.v_head_dim = v_head_dim > 0 ? v_head_dim : head_dim;
    return s;
  }
};

class CostCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("cost", "Predicted time of one op or collective on a card");
    sub->require_subcommand(1);
    sub->footer(
        "With --profile the calibrated numbers answer (falling back to the datasheet roofline for op\n"
        "classes the profile did not measure); without it, the datasheet roofline does.\n\n"
        "Examples:\n"
        "  rlsim cost gemm --hardware H100 --profile calibrate/profiles/h100.yaml --m 4096 --n 14336 --k "
        "4096 --json\n"
        "  rlsim cost attention-decode --hardware H20 --batch 64 --kv-len 8192 --q-heads 64 --kv-heads 8 "
        "--kv-dtype fp8\n"
        "  rlsim cost attention-prefill --hardware H100 --q-len 4096 --q-heads 32 --kv-heads 8\n"
        "  rlsim cost all-reduce --hardware H100 --profile calibrate/profiles/h100.yaml --bytes 64MiB --gpus "
        "8\n"
        "  rlsim cost decode --model llama-2-70b --hardware H100 --tp 8 --batch 64 --context 512");

    gemm_ = sub->add_subcommand("gemm", "C[m,n] = A[m,k]·B[k,n] (grouped with --groups)");
    gemm_target_.add_to(gemm_);
    gemm_->add_option("--m", m_, "Rows: tokens")->required()->check(CLI::Range(int64_t{1}, int64_t{1} << 30));
    gemm_->add_option("--n", n_, "Output features")
        ->required()
        ->check(CLI::Range(int64_t{1}, int64_t{1} << 30));
    gemm_->add_option("--k", k_, "Input features")
        ->required()
        ->check(CLI::Range(int64_t{1}, int64_t{1} << 30));
    gemm_->add_option("--groups", groups_, "Independent GEMMs (MoE experts, m tokens each)")
        ->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
    gemm_->add_option("--dtype", gemm_dtype_, "Precision of A and B (bf16, fp16, fp8, fp4, int8)");
    gemm_->footer(
        "Example:\n  rlsim cost gemm --hardware H100 --profile calibrate/profiles/h100.yaml --m 512 --n "
        "28672 --k 8192 --json");

    decode_ = sub->add_subcommand("attention-decode", "One query token per sequence against its KV cache");
    decode_target_.add_to(decode_);
    decode_flags_.add_to(decode_, false);
    decode_->footer(
        "Example:\n  rlsim cost attention-decode --hardware H100 --batch 32 --kv-len 8192 --q-heads 32 "
        "--kv-heads 8 --json");

    prefill_ = sub->add_subcommand("attention-prefill", "Causal attention over a prompt chunk");
    prefill_target_.add_to(prefill_);
    prefill_flags_.add_to(prefill_, true);
    prefill_->footer(
        "Example:\n  rlsim cost attention-prefill --hardware H100 --batch 1 --q-len 8192 --q-heads 32 "
        "--kv-heads 8 --json");

    all_reduce_ = sub->add_subcommand("all-reduce", "NCCL-style all-reduce of a buffer on every GPU");
    all_reduce_target_.add_to(all_reduce_);
    all_reduce_->add_option("--bytes", bytes_text_, "Buffer size on each GPU, e.g. 64MiB")->required();
    all_reduce_->add_option("--gpus", gpus_, "GPUs in the group")->check(CLI::Range(1, 1 << 20));
    all_reduce_
        ->add_option("--gpus-per-node", gpus_per_node_,
                     "GPUs per node (fewer than --gpus crosses nodes; default 8)")
        ->check(CLI::Range(1, 1 << 20));
    all_reduce_->add_option("--latency", latency_text_, "Per-hop latency without a profile (default 5us)");
    prefill_pass_.add_to(sub);
    decode_pass_.add_to(sub);
    all_reduce_->footer(
        "Example:\n  rlsim cost all-reduce --hardware H100 --profile calibrate/profiles/h100.yaml --bytes "
        "64MiB --gpus 8 --json");
    return sub;
  }

  int run() override {
    const Catalog catalog = load_builtin_catalog();
    if (all_reduce_->parsed()) return run_all_reduce(catalog);
    if (prefill_pass_.parsed()) return prefill_pass_.run(catalog);
    if (decode_pass_.parsed()) return decode_pass_.run(catalog);
    const CostTarget& target = gemm_->parsed()     ? gemm_target_
                               : decode_->parsed() ? decode_target_
                                                   : prefill_target_;
    const HardwareSpec& card = catalog.card(target.hardware, flag_location("--hardware"));
    Op op;
    if (gemm_->parsed()) {
      op = make_grouped_gemm("gemm", groups_, m_, n_, k_, precision_option(gemm_dtype_, "--dtype"));
    } else if (decode_->parsed()) {
      const Precision dtype = precision_option(decode_flags_.dtype, "--dtype");
      const Precision kv =
          decode_flags_.kv_dtype.empty() ? dtype : precision_option(decode_flags_.kv_dtype, "--kv-dtype");
      op = make_attention_decode("attention_decode", decode_flags_.shape(false), kv, dtype);
    } else {
      AttentionShape s = prefill_flags_.shape(true);
      if (s.kv_len < s.q_len) s.kv_len = s.q_len;
      op = make_attention_prefill("attention_prefill", s, precision_option(prefill_flags_.dtype, "--dtype"));
    }
    const auto model = target.cost_model(card);
    const bool calibrated =
        model->name() == "profile" && static_cast<const ProfiledCostModel&>(*model).covers(op);
    const double seconds = model->seconds(op, card);
    // Where the answer comes from, when the profile priced it (a plain value: GCC cannot see
    // through std::optional here and warns of an uninitialised read).
    std::optional<PriceSource> source;
    if (calibrated) {
      if (const auto price = static_cast<const ProfiledCostModel&>(*model).price(op, card))
        source = price->source;
    }
    if (target.json) {
      Json out;
      out["op"] = to_string(op.op_class);
      out["hardware"] = card.name;
      out["cost_model"] = model->name();
      out["calibrated"] = calibrated;
      if (source) out["price_source"] = enum_name(*source);
      out["seconds"] = seconds;
      out["flops"] = op.flops;
      out["bytes"] = op.bytes;
      out["achieved_flops_per_s"] = op.flops / seconds;
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << to_string(op.op_class) << " on " << card.name << ": "
                << readable(seconds, Quantity::duration) << "  ("
                << (source       ? "calibrated profile, " + std::string(price_source_note(*source))
                    : calibrated ? "calibrated profile"
                    : model->name() == "profile" ? "not in the profile: datasheet roofline"
                                                 : "datasheet roofline")
                << "; " << readable(op.flops / seconds, Quantity::flop_rate) << " achieved, "
                << readable(op.bytes / seconds, Quantity::bandwidth) << " of memory traffic)\n";
    }
    return kExitOk;
  }

 private:
  int run_all_reduce(const Catalog& catalog) const {
    const HardwareSpec& card = catalog.card(all_reduce_target_.hardware, flag_location("--hardware"));
    std::string why;
    const auto bytes = parse_quantity(bytes_text_, Quantity::bytes, &why);
    if (!bytes) throw InputError(flag_location("--bytes"), "expected " + why);
    const int per_node = gpus_per_node_ > 0 ? gpus_per_node_ : std::min(gpus_, 8);
    double seconds = 0.0;
    std::string source = "alpha-beta ring over datasheet links";
    if (!all_reduce_target_.profile.empty()) {
      const HardwareProfile profile = load_profile(all_reduce_target_.profile);
      if (profile.card != card.name) {
        throw InputError(flag_location("--profile"),
                         "profile was fitted for " + profile.card + ", not " + card.name);
      }
      const CollectiveFit* fit = profile.find_collective(Collective::all_reduce, gpus_, per_node);
      if (!fit)
        throw InputError(flag_location("--profile"),
                         "the profile has no all-reduce measurements; drop --profile");
      seconds = collective_seconds(*fit, gpus_, *bytes);
      source = "calibrated alpha-beta, measured at " + std::to_string(fit->gpus) + " GPUs with " +
               std::to_string(fit->gpus_per_node) + " per node";
    } else {
      auto latency = parse_quantity(latency_text_, Quantity::duration, &why);
      if (!latency) throw InputError(flag_location("--latency"), "expected " + why);
      const LinkSpec link{per_node < gpus_ ? card.nic_bw_bytes_per_s : card.intra_node_bw_bytes_per_s,
                          *latency};
      seconds = all_reduce_seconds(*bytes, gpus_, link);
    }
    if (all_reduce_target_.json) {
      Json out;
      out["op"] = "all_reduce";
      out["hardware"] = card.name;
      out["gpus"] = gpus_;
      out["bytes"] = *bytes;
      out["calibrated"] = !all_reduce_target_.profile.empty();
      out["seconds"] = seconds;
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << "all-reduce of " << format_quantity(*bytes, Quantity::bytes) << " on " << gpus_ << " x "
                << card.name << ": " << readable(seconds, Quantity::duration) << "  (" << source << ")\n";
    }
    return kExitOk;
  }

  CLI::App* gemm_ = nullptr;
  CLI::App* decode_ = nullptr;
  CLI::App* prefill_ = nullptr;
  CLI::App* all_reduce_ = nullptr;
  CostTarget gemm_target_, decode_target_, prefill_target_, all_reduce_target_;
  ForwardCost prefill_pass_{true}, decode_pass_{false};
  int64_t m_ = 0, n_ = 0, k_ = 0, groups_ = 1;
  std::string gemm_dtype_ = "bf16";
  AttentionFlags decode_flags_, prefill_flags_;
  std::string bytes_text_;
  int gpus_ = 8, gpus_per_node_ = 0;
  std::string latency_text_ = "5us";
};

}  // namespace
RLSIM_REGISTER_COMMAND(CostCommand, "cost", 60);
}  // namespace rlsim

// `rlsim plan S.yaml --gpus H800:64,H20:64`: the best arrangement of a GPU inventory (or budget) for
// the scenario's model and workload (for a serving scenario: the cheapest deployment that meets its
// SLO, tools/plan/serve_plan.h). Searches which card and how many nodes each of its two pools
// get, the policy, rollout.tp and training.tp (tools/plan/plan_space.h) by branch and bound on
// step-time lower bounds (plan_bound.h, plan_search.h), simulating only what can reach the front of
// step time against cost; prints that front, the chosen arrangement and why it beats the runner-up,
// and writes DIR/plan.csv (every arrangement and what became of it), DIR/front.svg and
// DIR/plan.yaml (the chosen arrangement as a scenario that runs as it is).
#include <iostream>
#include <sstream>

#include "models/memory/training_memory.h"
#include "models/units.h"
#include "sim/scenario/serve_reader.h"
#include "tools/cli/catalog_args.h"
#include "tools/cli/command.h"
#include "tools/cli/scenario_args.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/plan/plan_bound.h"
#include "tools/plan/plan_report.h"
#include "tools/plan/plan_reuse.h"
#include "tools/plan/plan_search.h"
#include "tools/plan/serve_plan.h"
#include "tools/report/output_dir.h"
#include "tools/report/progress.h"
#include "tools/report/text_format.h"
#include "tools/sweep/sweep_grid.h"
#include "tools/validation/validation_record.h"

namespace rlsim {
namespace {

/// What a plan writes at the top of its folder (an RL plan all four, a serving plan the first two).
const std::vector<std::string> kPlanOutputs = {"plan.csv", "plan.yaml", "plan-points.json", "front.svg"};

std::vector<int> parse_degrees(const std::string& list, const std::string& flag) {
  std::vector<int> degrees;
  for (const std::string& item : comma_separated(list)) {
    const bool digits = item.size() <= 3 && item.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::stoi(item) < 1)
      throw InputError({flag, 0, 0}, "expected TP degrees from 1 to 999, e.g. 1,2,4,8, found '" + item + "'");
    degrees.push_back(std::stoi(item));
  }
  if (degrees.empty()) throw InputError({flag, 0, 0}, "expected at least one TP degree, e.g. 1,2,4,8");
  return degrees;
}

class PlanCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("plan",
                                        "Find the best arrangement of a GPU inventory or budget: an RL job's "
                                        "pools, or a serving deployment that meets its SLO");
    args_.add_to(sub);
    sub->add_option("--gpus", gpus_,
                    "The GPUs at hand: CARD:COUNT,… (a CARD without a count: as many as "
                    "--budget-usd-per-hour buys)")
        ->required();
    sub->add_option("--budget-usd-per-hour", budget_, "Spend at most this per hour on GPUs (catalog prices)");
    sub->add_option("--policies", policies_, "Policies to try: colocated, disaggregated, overlap, streaming")
        ->capture_default_str();
    sub->add_option("--rollout-tp", rollout_tps_,
                    "Rollout (or, for a serving scenario, serving) TP degrees to try")
        ->capture_default_str();
    sub->add_option("--train-tp", train_tps_, "Training TP degrees to try")->capture_default_str();
    sub->add_option("--train-sharding", train_shardings_,
                    "Training shardings to try, e.g. zero1,zero3 (default: the scenario's own)");
    sub->add_option("--max-staleness", max_staleness_,
                    "Weight versions overlap and streaming may lag (their policy.max_staleness); 0 leaves "
                    "them out")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000));
    sub->add_option("--target-step-time", target_,
                    "Choose the cheapest arrangement per hour whose steady step is at most this (e.g. 90s)");
    sub->add_option("--objective", objective_,
                    "Without a target, choose the fastest (step_time) or the cheapest "
                    "per step (usd_per_step)")
        ->capture_default_str();
    sub->add_option("--max-points", max_points_, "Arrangements loaded or simulated at most")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000000));
    sub->add_flag(
        "--exhaustive", exhaustive_,
        "Simulate every arrangement (the grid, no bounds): to check the search, or for plan.csv in full");
    output_.add_to(sub, "Arrangements");
    sub->add_option(
        "--shard", shard_,
        "Simulate every arrangement numbered I-1 mod N (I/N: a Slurm array task's part; no bounds)");
    sub->add_option(
        "--reuse", reuse_,
        "Reuse what another plan of the same scenario simulated: its plan-points.json (repeatable; "
        "the shards' files, to join them)");
    sub->footer(
        "The scenario gives the model, the workload and the rest of the setup; it must have two pools,\n"
        "one for rollout and one for training (see scenarios/heterogeneous.yaml): the plan sets each\n"
        "pool's card and nodes, rollout.tp, training.tp and the policy, as --set would. Arrangements are\n"
        "simulated in order of a lower bound on their step (the work at the datasheet peak, raised by the\n"
        "phases simulations of the same pool measured); one that cannot reach the front of step time\n"
        "against cost (or, with a target, cannot meet it or costs more per hour than one that did) is\n"
        "never simulated, and one that does not fit memory costs a load. --exhaustive simulates the grid.\n"
        "Writes DIR/plan.csv (every arrangement: bound, what became of it, figures), DIR/front.svg,\n"
        "DIR/plan.yaml (the chosen arrangement, ready to run) and DIR/plan-points.json (what was simulated:\n"
        "a plan run again into DIR from the same scenario simulates only what it has not before). On a\n"
        "Slurm array, each task runs --shard I/N into its own folder, and a last plan joins them with\n"
        "--reuse 'DIR-*/plan-points.json' (docs/guide-plan.md).\n"
        "A serving scenario (kind: serve) gets the cheapest deployment per hour of the inventory whose p99\n"
        "TTFT and TPOT meet its workload.slo: its pool's card, nodes and TP (--rollout-tp), cheapest "
        "first.\n\n"
        "Examples:\n"
        "  rlsim plan scenarios/heterogeneous.yaml --gpus H800:32,H20:32 --out out/plan\n"
        "  rlsim plan scenarios/heterogeneous.yaml --gpus H800,H20 --budget-usd-per-hour 60 --out out/plan\n"
        "  rlsim plan scenarios/heterogeneous.yaml --gpus H20:64 --target-step-time 60s --out out/plan\n"
        "  rlsim plan scenarios/serve-llama3-70b.yaml --gpus H100:16,H20:16 --out out/plan-serve");
    return sub;
  }

  int run() override {
    PlanSearchOptions search;
    search.jobs = output_.jobs;
    search.max_points = max_points_;
    search.exhaustive = exhaustive_;
    if (!target_.empty()) search.target_step_s = parse_target();
    if (objective_ != "step_time" && objective_ != "usd_per_step")
      throw InputError({"--objective", 0, 0},
                       "expected step_time or usd_per_step, found '" + objective_ + "'");
    const PlanSpaceOptions space = space_options();
    const LoadOptions base = args_.load_options();
    const std::unique_ptr<ScenarioKind> kind = scenario_kind_of(args_.file, base);
    if (kind->name() == "serve") return plan_serving(space);
    if (kind->name() != "rl")
      throw InputError({args_.file, 0, 0},
                       "rlsim plan arranges the pools of an RL or a serving scenario; this one is kind " +
                           kind->name() + " (its alternatives are a sweep: rlsim sweep --help)");
    LoadOptions unchecked = base;
    unchecked.check_memory = false;  // each arrangement is checked on its own
    const LoadedScenario loaded = load_scenario(args_.file, unchecked);
    const PoolShape pools = pool_shape(loaded.scenario);
    const std::vector<CardStock> stock = card_stock(loaded.catalog, loaded.scenario.cluster.pools, space);

    std::vector<PlanPoint> points;
    const std::vector<StepWork> work = drawn_step_work(loaded.scenario);
    DecodeFloors floors(loaded.scenario);
    for (const Arrangement& a : arrangement_space(stock, pools, space)) {
      PlanPoint p;
      p.arrangement = a;
      const ArrangementCards cards{&loaded.catalog.hardware.at(a.rollout_card),
                                   &loaded.catalog.hardware.at(a.train_card)};
      const StepBound bound = step_time_lower_bound(loaded.scenario, work, a, cards, pools, floors);
      p.bound_s = bound.step_s;
      p.weight_sync_bound_s = bound.weight_sync_s;
      p.steady_steps = bound.steady_steps;
      points.push_back(p);
    }
    if (points.empty())
      throw InputError({"--gpus", 0, 0}, "no arrangement fits the inventory" +
                                             std::string(budget_ ? " and the budget" : "") +
                                             ": each pool needs at least one node");

    // A shard simulates its part of the grid, bounds aside: what one shard simulated cannot prune
    // another's.
    const size_t whole = points.size();
    if (!shard_.empty()) {
      const SweepShard shard = parse_sweep_shard(shard_);
      std::vector<PlanPoint> part;
      for (size_t i = 0; i < points.size(); ++i) {
        if (shard.holds(static_cast<long>(i))) part.push_back(points[i]);
      }
      points = std::move(part);
      search.exhaustive = true;
    }
    StagedOutput output(output_.out);  // checks --out before anything is simulated
    output.refuse_replacing({args_.file}, kPlanOutputs);
    // What a plan into this folder simulated before, from the same scenario, is not simulated again;
    // nor what the plans named by --reuse did (their shards, say).
    const std::string key = plan_base_key(loaded.resolved_yaml);
    reuse_plan_points(output_.out + "/plan-points.json", key, pools, points);
    for (const std::string& file : reuse_) {
      if (!reuse_plan_points(file, key, pools, points))
        throw InputError({"--reuse", 0, 0},
                         "'" + file +
                             "' is not the plan-points.json of a plan of this scenario (same "
                             "file, --set and --seed)");
    }
    {
      Progress progress(0, !output_.quiet);
      long done = 0;
      search_plan(args_.file, base, pools, points, search, [&](long at_most_left, double job_s) {
        // The total shrinks as bounds leave arrangements out: the ETA is an upper bound.
        progress.set_total(++done + at_most_left);
        progress.finished("arrangement", job_s);
      });
    }
    PlanReportInput in{loaded.scenario,      stock,      space, search, objective_ == "usd_per_step", pools,
                       args_.as_arguments(), output_.out};
    const PlanOutcome outcome = plan_outcome(points, in);
    output.write("plan.csv", plan_csv(points, pools));
    output.write("plan-points.json", plan_points_json(points, pools, key));
    output.write("front.svg", plan_front_svg(points, outcome, in));
    std::string trust;
    if (outcome.chosen) {
      const PlanPoint& c = points[*outcome.chosen];
      LoadOptions chosen = base;
      for (const std::string& set : c.arrangement.sets(pools)) chosen.overrides.push_back(set);
      const std::string resolved = load_scenario(args_.file, chosen).resolved_yaml;
      output.write("plan.yaml", plan_yaml_header(c, in) + resolved);
      // How far the validated cases nearest to the chosen arrangement put its step.
      const nlohmann::json step{
          {"step_time_s", {{"mean", c.figures.steady_step_s}, {"steady_mean", c.figures.steady_step_s}}}};
      trust = validated_near_from_record(resolved, output_.out + "/plan.yaml", &step);
    }
    output.commit();
    if (!shard_.empty()) {
      std::cout << "shard " << shard_ << ": " << points.size() << " of the " << whole
                << " arrangements; a last plan without --shard joins the shards: --reuse each shard's "
                   "plan-points.json\n";
    }
    std::cout << plan_text(points, outcome, in) << trust << "outputs: " << output_.out
              << "/{plan.csv,front.svg" << (outcome.chosen ? ",plan.yaml" : "") << ",plan-points.json}\n";
    return kExitOk;
  }

 private:
  /// A serving scenario's plan: the cheapest deployment that meets its SLO (tools/plan/serve_plan.h).
  int plan_serving(const PlanSpaceOptions& space) {
    LoadOptions unchecked = args_.load_options();
    unchecked.check_memory = false;  // each arrangement is checked on its own
    const LoadedServeScenario loaded = load_serve_scenario(args_.file, unchecked);
    const ServeWorkloadSpec& workload = loaded.scenario.workload;
    if (!workload.slo_ttft_s && !workload.slo_tpot_s)
      throw InputError({args_.file, 0, 0},
                       "a serving plan finds the cheapest deployment that meets workload.slo; "
                       "this scenario sets none (e.g. slo: {ttft: 1s, tpot: 50ms})");
    const Scenario& d = loaded.scenario.deployment;
    const PoolSpec& pool = *d.cluster.pool(d.rollout.pool);
    std::vector<ServePoint> points;
    for (const ServeArrangement& a :
         serve_arrangement_space(card_stock(loaded.catalog, d.cluster.pools, space), pool.gpus_per_node,
                                 space.rollout_tps, space.budget_usd_per_hour))
      points.push_back(ServePoint{a, ServeStatus::not_reached, "", 0.0, 0.0, 0.0});
    if (points.empty()) throw InputError({"--gpus", 0, 0}, "no deployment fits the inventory");
    StagedOutput output(output_.out);  // checks --out before anything is simulated
    output.refuse_replacing({args_.file}, kPlanOutputs);
    search_serve_plan(args_.file, args_.load_options(), pool.name, points, output_.jobs, max_points_);
    std::string slo;
    if (workload.slo_ttft_s) slo += "TTFT " + readable_duration(*workload.slo_ttft_s);
    if (workload.slo_tpot_s)
      slo += (slo.empty() ? "" : ", ") + std::string("TPOT ") + readable_duration(*workload.slo_tpot_s);
    output.write("plan.csv", serve_plan_csv(points));
    if (const std::optional<size_t> chosen = chosen_serve_point(points)) {
      LoadOptions options = args_.load_options();
      for (const std::string& set : points[*chosen].arrangement.sets(pool.name))
        options.overrides.push_back(set);
      output.write("plan.yaml",
                   "# rlsim plan's chosen deployment (the cheapest per hour that meets the SLO): " +
                       points[*chosen].arrangement.describe() + "\n" +
                       load_serve_scenario(args_.file, options).resolved_yaml);
    }
    output.commit();
    std::cout << serve_plan_text(points, d.name, slo, pool.name, args_.as_arguments(), output_.out);
    return kExitOk;
  }

  double parse_target() const {
    std::string why;
    const std::optional<double> seconds = parse_quantity(target_, Quantity::duration, &why);
    if (!seconds || *seconds <= 0.0)
      throw InputError(
          {"--target-step-time", 0, 0},
          "expected " + (why.empty() ? "a positive duration" : why) + ", found '" + target_ + "'");
    return *seconds;
  }

  PlanSpaceOptions space_options() const {
    PlanSpaceOptions space;
    for (const std::string& policy : comma_separated(policies_)) {
      const auto& known = plannable_policies();
      if (std::find(known.begin(), known.end(), policy) == known.end())
        throw InputError({"--policies", 0, 0},
                         "expected colocated, disaggregated, overlap or streaming, found '" + policy +
                             "' (the labels policy needs its tags per pool, which a plan does not place)");
      if (max_staleness_ == 0 && !synchronous_policy(policy)) continue;
      if (std::find(space.policies.begin(), space.policies.end(), policy) != space.policies.end())
        throw InputError({"--policies", 0, 0}, "policy '" + policy + "' is listed twice");
      space.policies.push_back(policy);
    }
    if (space.policies.empty()) throw InputError({"--policies", 0, 0}, "no policy to try");
    space.rollout_tps = parse_degrees(rollout_tps_, "--rollout-tp");
    space.train_tps = parse_degrees(train_tps_, "--train-tp");
    for (const std::string& sharding : comma_separated(train_shardings_)) {
      if (!parse_enum<Sharding>(sharding))
        throw InputError({"--train-sharding", 0, 0}, "expected training shardings among " +
                                                         joined(enum_names<Sharding>(), ", ") + ", found '" +
                                                         sharding + "'");
      space.train_shardings.push_back(sharding);
    }
    space.max_staleness = max_staleness_;
    if (budget_) {
      if (!(*budget_ > 0.0)) throw InputError({"--budget-usd-per-hour", 0, 0}, "expected a positive amount");
      space.budget_usd_per_hour = budget_;
    }
    return space;
  }

  /// The scenario's two pools; InputError when it has one, or an AFD rollout.
  PoolShape pool_shape(const Scenario& s) const {
    if (s.rollout.pool == s.training.pool)
      throw InputError(
          {args_.file, 0, 0},
          "rlsim plan arranges two pools, one for rollout and one for training; this scenario runs "
          "both on pool '" +
              s.rollout.pool +
              "': give training its own pool (as scenarios/heterogeneous.yaml does); the plan "
              "tries colocated too");
    if (s.rollout.afd)
      throw InputError({args_.file, 0, 0},
                       "rlsim plan does not arrange AFD rollouts (rollout.afd): sweep them");
    const PoolSpec& r = *s.cluster.pool(s.rollout.pool);
    const PoolSpec& t = *s.cluster.pool(s.training.pool);
    return PoolShape{r.name, t.name, r.gpus_per_node, t.gpus_per_node};
  }

  /// Each card of --gpus with its count and price: a pool of the scenario that has the card keeps
  /// its own price, else the catalog's.
  std::vector<CardStock> card_stock(const Catalog& catalog, const std::vector<PoolSpec>& pools,
                                    const PlanSpaceOptions& space) const {
    std::vector<CardStock> stock;
    for (const InventoryItem& item : parse_inventory(gpus_, "--gpus")) {
      const HardwareSpec& card = catalog.card(item.card, {"--gpus", 0, 0});
      CardStock c{card.name, 0, card.usd_per_hour};
      for (const PoolSpec& pool : pools) {
        if (pool.card.name == card.name) c.usd_per_gpu_hour = pool.card.usd_per_hour;
      }
      if (item.gpus) {
        c.gpus = *item.gpus;
      } else if (!space.budget_usd_per_hour) {
        throw InputError({"--gpus", 0, 0}, "give a count for " + card.name + " (e.g. " + card.name +
                                               ":64) or a --budget-usd-per-hour that limits it");
      } else if (c.usd_per_gpu_hour <= 0.0) {
        throw InputError({"--gpus", 0, 0}, card.name + " has no price (catalog usd_per_hour): give a count");
      } else {
        c.gpus = static_cast<int>(std::min(1e6, std::floor(*space.budget_usd_per_hour / c.usd_per_gpu_hour)));
      }
      stock.push_back(c);
    }
    return stock;
  }

  ScenarioArgs args_;
  std::string gpus_;
  std::optional<double> budget_;
  std::string policies_ = "colocated,disaggregated,overlap,streaming";
  std::string rollout_tps_ = "1,2,4,8";
  std::string train_tps_ = "1,2,4,8";
  std::string train_shardings_;
  int max_staleness_ = 1;
  std::string target_;
  std::string objective_ = "step_time";
  int max_points_ = 3000;
  bool exhaustive_ = false;
  ForkedOutputArgs output_{2, "out/plan"};
  std::string shard_;
  std::vector<std::string> reuse_;
};

}  // namespace
RLSIM_REGISTER_COMMAND(PlanCommand, "plan", 26);
}  // namespace rlsim

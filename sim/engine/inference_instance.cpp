// The instance's actor: messages in, the scheduler's plan run on the GPUs, replies out.
#include "sim/engine/inference_instance.h"

#include <algorithm>

#include "sim/engine/transport/activity_retirement.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;

InferenceInstance::InferenceInstance(int index, GpuGroup group, InstanceConfig config, Timeline& timeline,
                                     InstanceLinks links)
    : index_(index),
      group_(std::move(group)),
      config_(std::move(config)),
      gpus_(group_.tracks, timeline),
      links_(std::move(links)),
      mailbox_(sg4::Mailbox::by_name("instance-" + std::to_string(index))) {
  const SchedulerLimits limits{config_.max_batch, config_.kv_capacity_tokens, config_.swap_on_preempt};
  scheduler_ = make_replica_scheduler(config_.scheduler, config_.scheduler_params, limits);
  replica_.keeps_prefixes = config_.prefix_cache;
}

void InferenceInstance::serve() {
  // A permanent receiver: calls travel as soon as they are sent and queue here, as in a server's
  // socket buffer, instead of waiting for the instance to ask for the next one.
  mailbox_->set_receiver(sg4::Actor::self());
  post_receive();
  while (true) {
    drain_arrivals();
    if (const auto repaired_s = control_.take_fault()) {
      fail_and_recover(*repaired_s);
      continue;
    }
    if (control_.state() == InstanceState::preempting) {
      leave_rollout();
      continue;
    }
    if (const auto load = control_.take_weight_update()) load_weights(*load);
    const IterationPlan plan = scheduler_->schedule(replica_);
    sample_load();
    if (!plan.idle()) {
      runner_.run(plan, version_, receive_, [this](Sequence& s) { complete(s); });
    } else if (control_.state() == InstanceState::stopping && replica_.waiting.empty()) {
      break;
    } else {
      wait_idle();
    }
  }
  if (receive_) receive_->cancel();
  mailbox_->set_receiver(nullptr);
}

// --- messages and the control plane ---

void InferenceInstance::post_receive() { receive_ = mailbox_->get_async<InstanceMessage>(&arrived_); }

void InferenceInstance::handle_arrival() {
  if (arrived_->kind == InstanceMessage::Kind::request) {
    for (LlmRequest* call : arrived_->calls) take_call(call);
    if (arrived_->windowed) links_.taken(arrived_->calls.size());
  } else {
    control_.on_message(*arrived_, sg4::Engine::get_clock());
  }
  delete arrived_;
  arrived_ = nullptr;
  receive_ = nullptr;
  if (control_.receiving()) post_receive();
}

void InferenceInstance::drain_arrivals() {
  while (receive_ && received(receive_)) handle_arrival();
}

void InferenceInstance::take_call(LlmRequest* call) {
  if (control_.state() == InstanceState::paused) {
    displace(Sequence::arriving(call));
  } else {
    replica_.waiting.push_back(Sequence::arriving(call));
  }
}

void InferenceInstance::displace(const Sequence& s) {
  s.request->generated_tokens = s.request->output_tokens - s.remaining;
  links_.displace(s.request);
}

void InferenceInstance::load_weights(const WeightLoad& load) {
  gpus_.run_busy(load.pause_s, GpuState::switching());
  version_ = load.version;
}

void InferenceInstance::leave_rollout() {
  const PreemptOrder order = control_.pause();
  // Calls that have not started go elsewhere at once; so do all waiting ones when they migrate.
  for (const Sequence& s : replica_.take_unstarted(order.mode == Preemption::migrate)) displace(s);
  switch (order.mode) {
    case Preemption::save_kv:
      gpus_.run_busy(time_.kv_swap_s(replica_.context_tokens()), GpuState::switching());
      replica_.requeue_running(true);
      break;
    case Preemption::recompute: replica_.requeue_running(false); break;
    case Preemption::migrate:
      for (const Sequence& s : replica_.running) displace(s);
      replica_.drop_running();
      break;
  }
  // The KV memory goes to training: cached prefixes are gone.
  replica_.prefix_cache.clear();
  order.ack->put_init(new int(index_), 0)->detach();
  sample_load();  // paused: nothing runs until it is resumed
  pause_until_resumed();
}

void InferenceInstance::pause_until_resumed() {
  while (control_.state() == InstanceState::paused) {
    receive_->wait();
    handle_arrival();
  }
  if (const auto load = control_.leave_pause()) load_weights(*load);
}

void InferenceInstance::fail_and_recover(double repaired_s) {
  const double from = sg4::Engine::get_clock();
  for (const Sequence& s : replica_.lose_all(version_)) displace(s);
  sample_load();  // failed: nothing runs until it is repaired
  if (repaired_s > from) sg4::this_actor::sleep_until(repaired_s);
  gpus_.record(GpuState::wait(WaitCause::fault), from);
  gpus_.run_busy(config_.restart_s, GpuState::wait(WaitCause::fault));  // restarting is the fault's time too
}

void InferenceInstance::wait_idle() {
  const double idle_from = sg4::Engine::get_clock();
  receive_->wait();
  gpus_.record(GpuState::wait(WaitCause::idle), idle_from);
}

void InferenceInstance::sample_load() {
  const LoadSample now{sg4::Engine::get_clock(), static_cast<int>(replica_.running.size()),
                       static_cast<int>(replica_.waiting.size()), replica_.kv_in_use(),
                       replica_.stats.preemptions};
  if (!load_.empty()) {
    LoadSample& last = load_.back();
    if (last.running == now.running && last.waiting == now.waiting && last.kv_tokens == now.kv_tokens &&
        last.preemptions == now.preemptions)
      return;
    if (last.time_s == now.time_s) {
      last = now;
      return;
    }
  }
  load_.push_back(now);
}

void InferenceInstance::complete(Sequence& s) {
  LlmRequest& r = *s.request;
  r.finish_s = sg4::Engine::get_clock();
  r.instance = index_;
  const double decode_tokens = std::max(1.0, r.output_tokens - 1.0);
  gpus_.record_call(CallRecord{.trajectory = r.trajectory,
                               .turn = r.turn,
                               .step = r.step,
                               .instance = index_,
                               .preemptions = r.preemptions,
                               .submit_s = r.submit_s,
                               .prefill_start_s = r.prefill_start_s,
                               .first_token_s = r.first_token_s,
                               .finish_s = r.finish_s,
                               .ttft_s = r.first_token_s - r.submit_s,
                               .tpot_s = (r.finish_s - r.first_token_s) / decode_tokens});
  if (config_.prefix_cache) {
    // Cached prefixes only use KV that running sequences do not need. A shared prompt is one entry
    // (cached once prefilled, ReplicaState::prefilled), refreshed by every call that starts with it;
    // the call's own entry holds the rest of its KV, so the shared blocks are kept once, as vLLM and
    // SGLang keep them.
    replica_.cache_shared_start(r);
    const double shared = r.prefix_group >= 0 ? r.shared_prefix_tokens : 0.0;
    replica_.prefix_cache.insert(r.trajectory, r.context_tokens + r.new_tokens + r.output_tokens - shared);
    replica_.prefix_cache.evict_until_free(0.0, config_.kv_capacity_tokens - replica_.kv_used());
  }
  links_.on_finish(r);
  retire_finished(replies_);
  replies_.push_back(links_.send_reply(r, r.output_tokens * config_.output_bytes_per_token));
}

}  // namespace rlsim

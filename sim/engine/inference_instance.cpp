// Continuous batching with event-per-request decode stretches, preemption and a prefix cache.
#include "sim/engine/inference_instance.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "models/afd/afd_stages.h"
#include "models/timing/collectives.h"
#include "models/timing/inference_time.h"
#include "sim/engine/transport/activity_retirement.h"
#include "sim/engine/trajectory_manager.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

// Paged KV caches (vLLM, SGLang) allocate KV in blocks of this many tokens: a sequence runs out of
// KV at a block boundary, not at every token.
constexpr double kKvBlockTokens = 16.0;

}  // namespace

double kv_capacity_tokens(const ModelArch& model, const HardwareSpec& card, int tp, Precision weights, Precision kv,
                          double activation_fraction) {
  const double memory = card.mem_capacity_bytes * tp * (1.0 - activation_fraction);
  return (memory - weight_bytes(model, weights)) / kv_bytes_per_token(model, kv);
}

double afd_kv_capacity_tokens(const ModelArch& model, const HardwareSpec& card, int attention_gpus, Precision weights,
                              Precision kv, double activation_fraction) {
  const double per_gpu = card.mem_capacity_bytes * (1.0 - activation_fraction) - afd_attention_weight_bytes(model, weights);
  return attention_gpus * per_gpu / kv_bytes_per_token(model, kv);
}

InferenceInstance::InferenceInstance(int index, GpuGroup group, InstanceConfig config, Timeline& timeline,
                                     std::function<void(const LlmRequest&)> on_complete)
    : index_(index),
      group_(std::move(group)),
      config_(config),
      timeline_(timeline),
      on_complete_(std::move(on_complete)),
      mailbox_(sg4::Mailbox::by_name("instance-" + std::to_string(index))) {}

double InferenceInstance::kv_used() const {
  double used = 0.0;
  for (const auto& s : running_) used += s.kv_tokens;
  return used;
}

void InferenceInstance::post_receive() { receive_ = mailbox_->get_async<InstanceMessage>(&arrived_); }

void InferenceInstance::handle(InstanceMessage* message) {
  switch (message->kind) {
    case InstanceMessage::Kind::request: {
      Sequence s;
      s.request = message->request;
      s.remaining = s.request->output_tokens - s.request->generated_tokens;
      if (s.request->generated_tokens > 0.0) {
        // Moved here mid-generation: its KV is rebuilt by a prefill of everything so far.
        s.kv_tokens = s.request->context_tokens + s.request->new_tokens + s.request->generated_tokens;
      }
      if (paused_ && on_displaced_) {
        displace(s);
      } else {
        waiting_.push_back(s);
      }
      break;
    }
    case InstanceMessage::Kind::update_weights:
      pending_version_ = message->weight_version;
      pending_pause_s_ = message->pause_s;
      break;
    case InstanceMessage::Kind::stop: stopping_ = true; break;
    case InstanceMessage::Kind::preempt:
      assert(!paused_ && !preempting_ && "preempt sent to an instance already taken away from rollout");
      preempting_ = true;
      preemption_ = message->preemption;
      preempt_ack_ = message->ack;
      break;
    case InstanceMessage::Kind::resume:
      paused_ = false;
      resume_version_ = message->weight_version;
      resume_pause_s_ = message->pause_s;
      break;
    case InstanceMessage::Kind::fail:
      failed_until_ = std::max(failed_until_, sg4::Engine::get_clock() + message->pause_s);
      break;
  }
  delete message;
}

void InferenceInstance::displace(const Sequence& s) {
  s.request->generated_tokens = s.request->output_tokens - s.remaining;
  on_displaced_(s.request);
}

void InferenceInstance::stop_for_preemption() {
  if (on_displaced_) {
    // Calls that have not started go elsewhere at once; so do all waiting ones when they migrate.
    const bool all = preemption_ == Preemption::migrate;
    std::deque<Sequence> kept;
    for (const Sequence& s : waiting_) {
      if (all || (s.kv_tokens == 0.0 && !s.swapped)) {
        displace(s);
      } else {
        kept.push_back(s);
      }
    }
    waiting_.swap(kept);
  }
  switch (preemption_) {
    case Preemption::save_kv: {
      double kv_tokens = 0.0;
      for (const auto& s : running_) kv_tokens += s.kv_tokens;
      run_busy(kv_tokens * kv_bytes_per_token(*config_.model, config_.kv) / config_.tp / config_.swap_bytes_per_s,
               GpuState::switching());
      for (auto it = running_.rbegin(); it != running_.rend(); ++it) {
        it->needs_prefill = true;
        it->swapped = true;
        waiting_.push_front(*it);
      }
      break;
    }
    case Preemption::recompute:
      for (auto it = running_.rbegin(); it != running_.rend(); ++it) {
        it->needs_prefill = true;
        waiting_.push_front(*it);
      }
      break;
    case Preemption::migrate:
      for (const Sequence& s : running_) {
        if (on_displaced_) {
          displace(s);
        } else {
          Sequence kept = s;
          kept.needs_prefill = true;
          waiting_.push_front(kept);
        }
      }
      break;
  }
  stats_.preemptions += static_cast<long>(running_.size());
  for (auto& s : running_) ++s.request->preemptions;
  running_.clear();
  // The KV memory goes to training: cached prefixes are gone.
  prefix_lru_.clear();
  prefix_index_.clear();
  prefix_cached_tokens_ = 0.0;
  preempting_ = false;
  paused_ = true;
  preempt_ack_->put_init(new int(index_), 0)->detach();
  pause_until_resumed();
}

void InferenceInstance::fail_and_recover() {
  const double from = sg4::Engine::get_clock();
  std::vector<Sequence> lost(running_.begin(), running_.end());
  lost.insert(lost.end(), waiting_.begin(), waiting_.end());
  running_.clear();
  waiting_.clear();
  for (Sequence s : lost) {
    LlmRequest& r = *s.request;
    // Its tokens so far are gone (counted with the current weights); it starts over.
    r.version_token_sum -= (r.output_tokens - s.remaining) * version_;
    r.first_token_s = 0.0;
    s.remaining = r.output_tokens;
    s.kv_tokens = 0.0;
    s.needs_prefill = true;
    s.swapped = false;
    if (on_displaced_) {
      displace(s);
    } else {
      waiting_.push_back(s);
    }
  }
  prefix_lru_.clear();
  prefix_index_.clear();
  prefix_cached_tokens_ = 0.0;
  if (failed_until_ > from) sg4::this_actor::sleep_until(failed_until_);
  for (int track : group_.tracks) timeline_.record(track, GpuState::wait(WaitCause::fault), from, sg4::Engine::get_clock(), step_);
  failed_until_ = -1.0;
  run_busy(config_.restart_s, GpuState::switching());
}

void InferenceInstance::pause_until_resumed() {
  while (paused_ && !stopping_) {
    receive_->wait();
    handle(arrived_);
    arrived_ = nullptr;
    receive_ = nullptr;
    if (!stopping_) post_receive();
  }
  paused_ = false;
  version_ = resume_version_;
  run_busy(resume_pause_s_, GpuState::switching());
}

void InferenceInstance::drain_arrivals() {
  while (receive_ && received(receive_)) {
    handle(arrived_);
    arrived_ = nullptr;
    receive_ = nullptr;
    if (!stopping_) post_receive();
  }
}

void InferenceInstance::run_busy(double seconds, GpuState state) {
  if (seconds <= 0.0) return;
  const double start = sg4::Engine::get_clock();
  sg4::this_actor::execute(seconds);
  for (int track : group_.tracks) timeline_.record(track, state, start, sg4::Engine::get_clock(), step_);
}

double InferenceInstance::iteration_seconds(double batch, double mean_context) const {
  const auto b = static_cast<int64_t>(batch);
  if (config_.afd_table) return config_.afd_table->seconds(b, mean_context);
  double seconds = config_.decode_cost->seconds(b, mean_context);
  if (config_.tp > 1) {
    const LinkSpec link{config_.scale_up_bytes_per_s, config_.scale_up_latency_s};
    seconds += tp_allreduces_per_forward(*config_.model) *
               all_reduce_seconds(batch * tp_allreduce_bytes_per_token(*config_.model, Precision::bf16) /
                                      tp_allreduces_per_forward(*config_.model),
                                  config_.tp, link);
  }
  return seconds;
}

double InferenceInstance::prefill_seconds(const Sequence& s) const {
  if (s.swapped) return s.kv_tokens * kv_bytes_per_token(*config_.model, config_.kv) / config_.tp / config_.swap_bytes_per_s;
  const LlmRequest& r = *s.request;
  const double tokens = std::max(1.0, r.prefilled_tokens);
  const double before = std::max(0.0, s.kv_tokens - tokens);
  double seconds = rlsim::prefill_seconds(*config_.model, *config_.card, *config_.cost, static_cast<int64_t>(tokens),
                                          static_cast<int64_t>(before), config_.tp, config_.weights);
  if (config_.tp > 1) {
    const LinkSpec link{config_.scale_up_bytes_per_s, config_.scale_up_latency_s};
    seconds += tp_allreduces_per_forward(*config_.model) *
               all_reduce_seconds(tokens * tp_allreduce_bytes_per_token(*config_.model, Precision::bf16) /
                                      tp_allreduces_per_forward(*config_.model),
                                  config_.tp, link);
  }
  return seconds;
}

double InferenceInstance::take_prefix(int trajectory) {
  auto it = prefix_index_.find(trajectory);
  if (it == prefix_index_.end()) return 0.0;
  const double tokens = it->second->second;
  prefix_cached_tokens_ -= tokens;
  prefix_lru_.erase(it->second);
  prefix_index_.erase(it);
  return tokens;
}

void InferenceInstance::put_back_prefix(int trajectory, double tokens) {
  prefix_lru_.emplace_front(trajectory, tokens);
  prefix_index_[trajectory] = prefix_lru_.begin();
  prefix_cached_tokens_ += tokens;
}

void InferenceInstance::cache_prefix(const LlmRequest& r) {
  if (!config_.prefix_cache) return;
  const double tokens = r.context_tokens + r.new_tokens + r.output_tokens;
  prefix_lru_.emplace_front(r.trajectory, tokens);
  prefix_index_[r.trajectory] = prefix_lru_.begin();
  prefix_cached_tokens_ += tokens;
  // Cached prefixes only use KV that running sequences do not need.
  const double room = config_.kv_capacity_tokens - kv_used();
  while (prefix_cached_tokens_ > room && !prefix_lru_.empty()) {
    prefix_cached_tokens_ -= prefix_lru_.back().second;
    prefix_index_.erase(prefix_lru_.back().first);
    prefix_lru_.pop_back();
  }
}

double InferenceInstance::admit() {
  double prefill = 0.0;
  restore_s_ = 0.0;
  while (!waiting_.empty() && static_cast<int>(running_.size()) < config_.max_batch) {
    Sequence s = waiting_.front();
    LlmRequest& r = *s.request;
    // This trajectory's cached prefix, out of the cache while admission is tried (so it cannot be
    // evicted for its own sake); back in it if the call is not admitted.
    double own_prefix = 0.0, cached = 0.0;
    if (s.needs_prefill && !s.swapped) {
      if (s.kv_tokens == 0.0) {
        // First admission: reuse a cached prefix of this trajectory if there is one.
        own_prefix = config_.prefix_cache ? take_prefix(r.trajectory) : 0.0;
        cached = std::min(own_prefix, r.context_tokens);
        s.kv_tokens = r.context_tokens + r.new_tokens;
        r.prefilled_tokens = s.kv_tokens - cached;
      } else {
        r.prefilled_tokens = s.kv_tokens;  // recompute after preemption
      }
    }
    // Room for the call and one KV block more for every running sequence and itself, as paged
    // KV caches allocate: admitting into the last free slots would only have the newest call
    // preempted again at once.
    const double need = s.kv_tokens + kKvBlockTokens * static_cast<double>(running_.size() + 1);
    auto free = [&]() { return config_.kv_capacity_tokens - kv_used() - prefix_cached_tokens_; };
    // Evict cached prefixes before refusing; a call bigger than everything runs alone.
    while (!prefix_lru_.empty() && need > free()) {
      prefix_cached_tokens_ -= prefix_lru_.back().second;
      prefix_index_.erase(prefix_lru_.back().first);
      prefix_lru_.pop_back();
    }
    if (need > free()) {
      if (!running_.empty()) {
        if (own_prefix > 0.0) put_back_prefix(r.trajectory, own_prefix);
        break;
      }
      ++stats_.overcommitted_calls;
    }
    if (cached > 0.0) {
      ++stats_.prefix_hits;
      stats_.prefix_tokens_saved += cached;
    }
    waiting_.pop_front();
    prefill += prefill_seconds(s);
    if (s.swapped) restore_s_ += prefill_seconds(s);
    s.swapped = false;
    running_.push_back(s);
  }
  return prefill;
}

bool InferenceInstance::preempt_newest() {
  if (running_.size() <= 1) return false;
  Sequence s = running_.back();
  running_.pop_back();
  ++stats_.preemptions;
  ++s.request->preemptions;
  s.needs_prefill = true;
  if (config_.swap_on_preempt) {
    s.swapped = true;
    run_busy(s.kv_tokens * kv_bytes_per_token(*config_.model, config_.kv) / config_.tp / config_.swap_bytes_per_s,
             GpuState::switching());
  }
  waiting_.push_front(s);
  return true;
}

void InferenceInstance::complete(Sequence& s) {
  LlmRequest& r = *s.request;
  r.finish_s = sg4::Engine::get_clock();
  r.instance = index_;
  const double decode_tokens = std::max(1.0, r.output_tokens - 1.0);
  timeline_.record_call(CallRecord{r.first_token_s - r.submit_s, (r.finish_s - r.first_token_s) / decode_tokens});
  cache_prefix(r);
  on_complete_(r);
  r.to_agent = true;
  const double bytes = r.output_tokens * config_.output_bytes_per_token;
  retire_finished(replies_);
  replies_.push_back(r.data_plane ? r.data_plane->send_reply(&r, bytes)
                                  : r.agent_inbox->put_async(&r, static_cast<uint64_t>(bytes)));
}

void InferenceInstance::advance(long iterations) {
  const double n = static_cast<double>(iterations);
  for (auto& s : running_) {
    s.remaining -= n;
    s.kv_tokens += n;
    s.request->version_token_sum += n * version_;
  }
  auto done = std::stable_partition(running_.begin(), running_.end(), [](const Sequence& s) { return s.remaining > 0.5; });
  for (auto it = done; it != running_.end(); ++it) complete(*it);
  running_.erase(done, running_.end());
}

long InferenceInstance::decode(long iterations, double iteration_s, double first_s) {
  const double start = sg4::Engine::get_clock();
  sg4::ExecPtr exec = sg4::this_actor::exec_init(iterations * iteration_s);
  exec->start();
  long done = iterations;
  if (receive_) {
    std::vector<sg4::ActivityPtr> activities{exec, receive_};
    if (sg4::Activity::wait_any(activities) == 1) {
      // A message arrived mid-stretch: finish the current iteration, then re-plan. Iterations
      // grow by a constant step from first_s (context grows by one token each), summing to the
      // stretch's total, so the iterations done and the rest are exact: re-planning (or a
      // preemption) neither loses nor adds decode time.
      const double elapsed = sg4::Engine::get_clock() - start;
      const double n = static_cast<double>(iterations);
      const double slope = iterations > 1 ? 2.0 * (iteration_s - first_s) / (n - 1.0) : 0.0;
      auto time_of = [&](long d) { return d * first_s + slope * static_cast<double>(d) * static_cast<double>(d - 1) / 2.0; };
      const double a = slope / 2.0, b = first_s - slope / 2.0;
      double estimate = elapsed / iteration_s;
      const double discriminant = b * b + 4.0 * a * elapsed;
      if (a != 0.0 && discriminant >= 0.0) estimate = (-b + std::sqrt(discriminant)) / (2.0 * a);
      estimate = std::clamp(estimate, 1.0, n);
      done = std::clamp<long>(static_cast<long>(std::ceil(estimate - 1e-9)), 1, iterations);
      while (done < iterations && time_of(done) < elapsed) ++done;
      while (done > 1 && time_of(done - 1) >= elapsed) --done;
      exec->cancel();
      const double rest = time_of(done) - elapsed;
      if (rest > 0.0) sg4::this_actor::execute(rest);
    }
  } else {
    exec->wait();
  }
  for (int track : group_.tracks) timeline_.record(track, GpuState::busy(Phase::rollout), start, sg4::Engine::get_clock(), step_);
  return done;
}

void InferenceInstance::serve() {
  // A permanent receiver: calls travel as soon as they are sent and queue here, as in a server's
  // socket buffer, instead of waiting for the instance to ask for the next one.
  mailbox_->set_receiver(sg4::Actor::self());
  post_receive();
  while (true) {
    drain_arrivals();
    if (failed_until_ >= 0.0) {
      fail_and_recover();
      continue;
    }
    if (preempting_) {
      stop_for_preemption();
      continue;
    }
    if (pending_version_ >= 0) {
      run_busy(pending_pause_s_, GpuState::switching());
      version_ = pending_version_;
      pending_version_ = -1;
    }
    const double prefill = admit();
    if (prefill > 0.0) {
      run_busy(restore_s_, GpuState::switching());  // KV coming back from host memory
      run_busy(prefill - restore_s_, GpuState::busy(Phase::rollout));
      // The prefill produces each new sequence's first token.
      for (auto& s : running_) {
        if (!s.needs_prefill) continue;
        s.needs_prefill = false;
        if (s.request->first_token_s == 0.0) {
          s.request->first_token_s = sg4::Engine::get_clock();
          s.remaining -= 1.0;
          s.kv_tokens += 1.0;
          s.request->version_token_sum += version_;
        }
      }
      advance(0);
      continue;
    }
    if (running_.empty()) {
      if (stopping_ && waiting_.empty()) break;
      const double idle_from = sg4::Engine::get_clock();
      receive_->wait();
      for (int track : group_.tracks) timeline_.record(track, GpuState::wait(WaitCause::idle), idle_from, sg4::Engine::get_clock(), step_);
      continue;
    }
    const double batch = static_cast<double>(running_.size());
    const double free = config_.kv_capacity_tokens - kv_used();
    const long kv_limit = static_cast<long>(std::floor(free / batch));
    // Out of KV blocks: the newest sequence gives its KV up (recompute or swap).
    if (kv_limit < static_cast<long>(kKvBlockTokens) && preempt_newest()) continue;
    long iterations = static_cast<long>(std::ceil(running_.front().remaining - 1e-9));
    for (const auto& s : running_) iterations = std::min(iterations, static_cast<long>(std::ceil(s.remaining - 1e-9)));
    if (kv_limit >= 1) iterations = std::min(iterations, kv_limit);
    iterations = std::max(1L, iterations);
    // Decode time is affine in context: the stretch's mean context gives its exact total.
    const double mean_context = kv_used() / batch + (static_cast<double>(iterations) - 1.0) / 2.0;
    advance(decode(iterations, iteration_seconds(batch, mean_context), iteration_seconds(batch, kv_used() / batch)));
  }
  if (receive_) receive_->cancel();
  mailbox_->set_receiver(nullptr);
}

}  // namespace rlsim

// Binomial-tree and pipelined-ring weight broadcast over SimGrid comms.
#include "sim/engine/weight_sync.h"

#include <memory>

#include "models/arch_params.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

constexpr int kRingChunks = 16;

void tree_broadcast(sg4::Host* source, const std::vector<sg4::Host*>& destinations, double bytes) {
  std::vector<sg4::Host*> holders{source};
  size_t next = 0;
  while (next < destinations.size()) {
    std::vector<sg4::CommPtr> round;
    const size_t senders = holders.size();
    for (size_t i = 0; i < senders && next < destinations.size(); ++i) {
      sg4::Host* receiver = destinations[next++];
      round.push_back(sg4::Comm::sendto_async(holders[i], receiver, bytes));
      holders.push_back(receiver);
    }
    for (auto& comm : round) comm->wait();
  }
}

void ring_broadcast(sg4::Host* source, const std::vector<sg4::Host*>& destinations, double bytes) {
  // Hop h forwards chunk c once it has arrived from hop h-1: chunk c leaves hop h at
  // max(arrival of c at h, departure of c-1 from h). Each hop is an actor; a mailbox per hop
  // carries "chunk arrived" notices.
  std::vector<sg4::Host*> chain{source};
  chain.insert(chain.end(), destinations.begin(), destinations.end());
  const double chunk = bytes / kRingChunks;
  std::vector<sg4::ActorPtr> hops;
  const std::string tag = "ring-" + std::to_string(reinterpret_cast<uintptr_t>(source));
  for (size_t h = 0; h + 1 < chain.size(); ++h) {
    hops.push_back(sg4::Actor::create(tag + "-hop" + std::to_string(h), chain[h], [h, &chain, chunk, tag]() {
      sg4::Mailbox* inbox = sg4::Mailbox::by_name(tag + "-" + std::to_string(h));
      sg4::Mailbox* outbox = sg4::Mailbox::by_name(tag + "-" + std::to_string(h + 1));
      const bool last = h + 2 == chain.size();
      for (int c = 0; c < kRingChunks; ++c) {
        if (h > 0) delete inbox->get<int>();
        sg4::Comm::sendto(chain[h], chain[h + 1], chunk);
        if (!last) outbox->put(new int(c), 0);
      }
    }));
  }
  for (auto& hop : hops) hop->join();
}

}  // namespace

double sync_weights(sg4::Host* source, const std::vector<sg4::Host*>& destinations, double bytes,
                    WeightSyncMethod method) {
  const double start = sg4::Engine::get_clock();
  if (destinations.empty() || bytes <= 0.0) return 0.0;
  if (method == WeightSyncMethod::ring) {
    ring_broadcast(source, destinations, bytes);
  } else {
    tree_broadcast(source, destinations, bytes);
  }
  return sg4::Engine::get_clock() - start;
}

double engine_load_pause_s(const Scenario& scenario) {
  return engine_load_s(scenario.model, weight_bytes(scenario.model, scenario.weight_sync.precision),
                       scenario.weight_sync.engine_load);
}

}  // namespace rlsim

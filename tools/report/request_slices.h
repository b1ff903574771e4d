// Per-request slices for trace.json (`rlsim run --trace-requests`): every LLM call as a slice from
// its submission to its last token, in the process of the instance that finished it, with its
// parts nested inside (queue until its first prefill, prefill until the first token, decode), and,
// for RL, a flow arrow from each turn of a trajectory to the next, across the tool call between.
// Calls that overlap in time sit on separate lanes (threads "requests 0", "requests 1", …): each
// call takes the lowest lane free at its submission, so a lane's slices never overlap.
#pragma once

#include <string>
#include <vector>

#include "sim/platform/timeline.h"
#include "tools/report/trace_writer.h"

namespace rlsim {

/// How slices are named: RL calls by trajectory and turn, serving requests by request id.
enum class RequestNaming { trajectory_turn, request };

/// Writes (for ChromeTraceStyle::extra_events) the trace events of `calls`, in the instance
/// processes of chrome_trace.h (pid kFirstInstancePid + instance).
void write_request_slices(TraceWriter& out, const std::vector<CallRecord>& calls, RequestNaming naming);

/// The lane of each call (index into `calls`): per instance, the lowest lane whose previous call
/// finished by this call's submission, calls taken in submission order.
std::vector<int> request_lanes(const std::vector<CallRecord>& calls);

}  // namespace rlsim

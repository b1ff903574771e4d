// TraceWriter (tools/report/trace_writer.h) and the chrome trace written through it: the text
// reaches the stream as it grows, not at the end, and reads back the same, commas and all.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tools/report/chrome_trace.h"
#include "tools/report/trace_writer.h"

using namespace rlsim;

namespace {

std::string event(int i) {
  return "{\"i\":" + std::to_string(i) + ",\"pad\":\"" + std::string(90, 'x') + "\"}";
}

}  // namespace

TEST_CASE("TraceWriter separates events with commas and spills them to the stream as they grow") {
  std::ostringstream stream;
  std::string expected;
  size_t largest_held = 0;
  {
    TraceWriter writer(stream);
    for (int i = 0; i < 40000; ++i) {  // about 4 MB
      writer.begin_event();
      writer.text() += event(i);
      expected += (i ? "," : "") + event(i);
      largest_held = std::max(largest_held, writer.text().size());
    }
    CHECK(writer.events() == 40000);
    // Most of the text is already in the stream; what is held stays near a megabyte.
    CHECK(stream.str().size() > 3'000'000);
    CHECK(largest_held < 1'100'000);
  }
  CHECK(stream.str() == expected);
}

TEST_CASE("TraceWriter with no events writes nothing and puts no comma before the first") {
  std::ostringstream none;
  { TraceWriter writer(none); }
  CHECK(none.str().empty());
  std::ostringstream one;
  {
    TraceWriter writer(one);
    writer.begin_event();
    writer.text() += "{}";
  }
  CHECK(one.str() == "{}");
}

TEST_CASE("write_chrome_trace is valid JSON with extra events, with none, and with a writer that adds none") {
  Timeline timeline;
  const int gpu = timeline.add_track(Track{"rollout-node0-gpu0", "rollout"});
  timeline.record(gpu, GpuState::busy(Phase::rollout), 0.0, 1.5, 0);
  timeline.record(gpu, GpuState::busy(Phase::rollout), 2.0, 2.25, 1);
  ChromeTraceStyle style;
  style.process_name = [](const std::string& group) { return "pool " + group; };

  const auto events_of = [&](const ChromeTraceStyle& s) {
    std::ostringstream out;
    write_chrome_trace(out, timeline, s);
    const std::string text = out.str();
    REQUIRE(text.back() == '\n');
    return nlohmann::json::parse(text)["traceEvents"];
  };
  const nlohmann::json plain = events_of(style);
  // Process and thread names, then the two intervals.
  REQUIRE(plain.size() == 4);
  CHECK(plain[3]["ts"] == 2e6);
  CHECK(plain[3]["dur"] == 250000.0);

  style.extra_events = [](TraceWriter&) {};
  CHECK(events_of(style) == plain);

  style.extra_events = [](TraceWriter& writer) {
    write_instance_load_counters(writer, {{LoadSample{0.5, 3, 1, 1024.0, 0}}});
  };
  const nlohmann::json counted = events_of(style);
  REQUIRE(counted.size() == plain.size() + 4);  // the instance's name and three counters
  CHECK(counted[4]["args"]["name"] == "instance 0");
  CHECK(counted[5]["args"]["running"] == 3);
  CHECK(counted[6]["args"]["used"] == 1024);
}

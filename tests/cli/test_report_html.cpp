// report.html: run, compare and sweep each write one self-contained page (no network, no script);
// a run's page has the timeline per pool coloured by state, the bubble by cause and the inputs.
// Where Debian's chromium is installed, the page is rendered headless to a screenshot. A summary's
// prose lines wrap at the page's width; its table rows keep their columns and scroll.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "sim/platform/gpu_state.h"
#include "tests/cli/cli_support.h"
#include "tools/report/html_report.h"

using namespace rlsim::test;

namespace {

bool self_contained(const std::string& html) {
  return html.find("<script") == std::string::npos &&
         html.find("http://") == html.find("http://www.w3.org") &&
         html.find("https://") == std::string::npos && html.find("src=") == std::string::npos;
}

}  // namespace

TEST_CASE("run writes a self-contained report.html with the timeline, bubble and inputs") {
  const auto out = scratch_dir("report-run") / "out";
  REQUIRE(run_rlsim("run scenarios/quickstart.yaml --set workload.steps=2 --out '" + out.string() + "'")
              .exit_code == 0);
  const std::string html = slurp(out / "report.html");
  REQUIRE(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(self_contained(html));
  CHECK_THAT(html, Catch::Contains("Timeline per pool") && Catch::Contains("pool rollout (8 GPUs, 4 rows)") &&
                       Catch::Contains("pool train (8 GPUs, 1 row)") && Catch::Contains("step 1 ends"));
  // One row per TP-2 instance, named as trace.json names its track (hovered as the segment's title).
  CHECK_THAT(html,
             Catch::Contains("<title>instance 3 (rollout-node0-gpu6, rollout-node0-gpu7) busy:rollout"));
  const std::string rollout = rlsim::to_string(rlsim::GpuState::busy(rlsim::Phase::rollout));
  const std::string waiting = rlsim::to_string(rlsim::GpuState::wait(rlsim::WaitCause::train_waits_rollout));
  CHECK_THAT(html, Catch::Contains(rollout + ":") && Catch::Contains(waiting + ":"));
  CHECK_THAT(html, Catch::Contains("Bubble by cause") && Catch::Contains("TTFT per call") &&
                       Catch::Contains("Inputs (resolved.yaml)") && Catch::Contains("max_batch: 128"));
  CHECK(html.find("</html>") != std::string::npos);

  const char* probe = "command -v chromium >/dev/null 2>&1";
  if (std::system(probe) != 0) {
    WARN("chromium not installed: report.html not rendered (Debian: apt-get install chromium)");
    return;
  }
  // Flags as this machine's closed network needs them: no background fetches, a fresh profile.
  const std::string chromium =
      "chromium --headless --no-sandbox --disable-gpu --disable-background-networking "
      "--disable-component-update --disable-sync --no-first-run --user-data-dir='" +
      (out.parent_path() / "chromium-profile").string() + "' ";
  const std::string page = "'file://" + (out / "report.html").string() + "'";
  const auto png = out.parent_path() / "report.png";
  const std::string render =
      chromium + "--window-size=1280,1600 --screenshot='" + png.string() + "' " + page + " >/dev/null 2>&1";
  REQUIRE(std::system(render.c_str()) == 0);
  CHECK(std::filesystem::file_size(png) > 10000);  // a blank page is a few KB
  // The document Chromium parsed holds the figures: the summary's steady-state step time, the
  // timeline's SVG and the bubble section.
  const auto dom = out.parent_path() / "report.dom.html";
  REQUIRE(std::system((chromium + "--dump-dom " + page + " >'" + dom.string() + "' 2>/dev/null").c_str()) ==
          0);
  const std::string parsed = slurp(dom);
  CHECK_THAT(parsed, Catch::Contains("step time, steady state") && Catch::Contains("<svg") &&
                         Catch::Contains("Bubble by cause") &&
                         Catch::Contains("pool rollout (8 GPUs, 4 rows)"));
}

TEST_CASE("compare and sweep write a report.html too") {
  const auto dir = scratch_dir("report-compare");
  REQUIRE(run_rlsim("compare scenarios/quickstart.yaml --policies disaggregated,overlap --jobs 2 --set "
                    "workload.steps=2 --out '" +
                    (dir / "cmp").string() + "'")
              .exit_code == 0);
  const std::string compare = slurp(dir / "cmp" / "report.html");
  CHECK(self_contained(compare));
  CHECK_THAT(compare, Catch::Contains("winner by") && Catch::Contains("<svg") &&
                          Catch::Contains("href=\"overlap/report.html\""));
  CHECK(std::filesystem::exists(dir / "cmp" / "overlap" / "report.html"));
  REQUIRE(run_rlsim("sweep scenarios/quickstart.yaml --param rollout.max_batch=32,64 --set workload.steps=2 "
                    "--out '" +
                    (dir / "sweep").string() + "'")
              .exit_code == 0);
  const std::string sweep = slurp(dir / "sweep" / "report.html");
  CHECK(self_contained(sweep));
  CHECK_THAT(sweep, Catch::Contains("<svg") && Catch::Contains("max_batch"));
}

TEST_CASE("a summary's prose lines wrap and its table rows keep their columns") {
  const std::string html = rlsim::html_pre(
      "sweep results (2 of 2 points):\n  serve.engine ttft_p50_ms\n       vllm-v1     990.955\nbatching: "
      "every "
      "point ran <chunked_prefill> as the scenario sets it\n\n");
  CHECK(html ==
        "<pre><span class=\"prose\">sweep results (2 of 2 points):\n</span>  "
        "serve.engine ttft_p50_ms\n       vllm-v1     990.955\n<span class=\"prose\">batching: every point "
        "ran &lt;chunked_prefill&gt; as the scenario sets it\n</span>\n</pre>\n");
  CHECK(rlsim::html_page("t", {{"s", html}}).find("pre .prose{white-space:pre-wrap}") != std::string::npos);
}

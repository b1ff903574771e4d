// Reading scenarios/validation/cases.yaml.
#include "tools/validation/validation_manifest.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "sim/scenario/catalog.h"
#include "sim/scenario/cluster_reader.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {
namespace {
namespace fs = std::filesystem;

const std::vector<std::string> kRoles = {"calibrate", "judge"};

std::vector<std::string> read_sets(YamlReader& r) {
  std::vector<std::string> sets;
  if (!r.has("set")) return sets;
  const YAML::Node node = r.raw("set");
  const std::string path = r.path().empty() ? "set" : r.path() + ".set";
  if (!node.IsMap()) r.fail("set", "expected a mapping of scenario paths to values, e.g. {afd.batch: 4096}");
  for (const auto& entry : node) {
    if (!entry.second.IsScalar() || entry.second.Scalar().empty()) {
      throw InputError(r.source().locate(entry.second, path + "." + entry.first.Scalar()),
                       "expected one value for '" + entry.first.Scalar() + "' (as --set takes it)");
    }
    sets.push_back(entry.first.Scalar() + "=" + entry.second.Scalar());
  }
  return sets;
}

OpCase read_op(YamlReader& r, const Catalog& catalog) {
  OpCase c;
  c.hardware = r.text("hardware");
  catalog.card(c.hardware, r.where("hardware"));  // InputError listing the cards when unknown
  YamlReader gemm = r.map("gemm");
  const int64_t m = gemm.integer("m", 1, int64_t{1} << 30), n = gemm.integer("n", 1, int64_t{1} << 30),
                k = gemm.integer("k", 1, int64_t{1} << 30), groups = gemm.integer_or("groups", 1, 1, 1 << 20);
  const Precision dtype = read_precision(gemm, "dtype", Precision::bf16);
  gemm.finish();
  r.finish();
  c.op = make_grouped_gemm("gemm", groups, m, n, k, dtype);
  return c;
}

/// A case's folder name and its staging folder's (".NAME.partial-PID") stay within the 255 bytes
/// a file name may have.
constexpr size_t kMaxCaseNameLength = 200;

ValidationCase read_case(YamlReader& r, const fs::path& folder, const Catalog& catalog) {
  ValidationCase c;
  c.where = r.where();
  c.name = r.text("name");
  // The name becomes the folder of the case's outputs under --out: one plain path component.
  const bool plain =
      !c.name.empty() && std::isalnum(static_cast<unsigned char>(c.name.front())) &&
      std::all_of(c.name.begin(), c.name.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.';
      });
  if (!plain) {
    r.fail("name",
           "expected letters, digits, '-', '_' and '.' starting with a letter or digit (the case's "
           "outputs go to a folder of that name under --out), got '" +
               c.name + "'");
  }
  // Nor the name of a file the suite writes beside the cases' folders, nor longer than a folder
  // name may be (with its staging suffix, ".NAME.partial-PID").
  if (c.name == "validation.csv" || c.name == "record.csv")
    r.fail("name",
           "'" + c.name + "' is the name of a file rlsim validation writes in --out; give the case another");
  if (c.name.size() > kMaxCaseNameLength)
    r.fail("name", "expected at most " + std::to_string(kMaxCaseNameLength) +
                       " characters (a folder of that name "
                       "goes under --out), got " +
                       std::to_string(c.name.size()));
  if (r.has("op")) {
    if (r.has("scenario")) r.fail("scenario", "a case has a scenario or an op, not both");
    YamlReader op = r.map("op");
    c.op = read_op(op, catalog);
  } else {
    const std::string scenario = r.text("scenario");
    c.scenario = (folder / scenario).lexically_normal().string();
    if (!fs::is_regular_file(c.scenario)) {
      r.fail("scenario", "no scenario file '" + c.scenario + "' (paths are relative to the manifest)");
    }
  }
  c.sets = read_sets(r);
  if (c.op && !c.sets.empty()) r.fail("set", "an op case has no scenario to override");
  c.metric = r.text("metric");
  c.metric_where = r.where("metric");
  if (c.op && c.metric != "seconds" && c.metric != "tflops") {
    r.fail("metric", "an op case's metric is 'seconds' or 'tflops', found '" + c.metric + "'");
  }
  c.published = r.number("published", 0, 1e15);
  if (c.published == 0) r.fail("published", "a published figure of 0 leaves no relative error to compute");
  c.unit = r.text("unit");
  c.source = r.text("source");
  c.setup = r.text("setup");
  c.assumptions = r.text_list("assumptions");
  c.tolerance = r.number("tolerance", 0, 10);
  if (c.tolerance <= 0) r.fail("tolerance", "expected a relative tolerance above 0, e.g. 0.15 for 15 %");
  c.role = r.text("role");
  if (std::find(kRoles.begin(), kRoles.end(), c.role) == kRoles.end()) {
    r.fail("role", "expected 'calibrate' (the figure set a model term) or 'judge' (held out), found '" +
                       c.role + "'");
  }
  c.requires_kind = r.text_or("requires", "");
  c.known_gap = r.text_or("known_gap", "");
  if (r.has("gap_error")) c.gap_error = r.number("gap_error", -1e6, 1e6);
  if (!c.known_gap.empty() && !c.gap_error) {
    r.fail("known_gap",
           "a known gap records the error it was marked at: add gap_error (the relative error, e.g. -0.32)");
  }
  if (c.known_gap.empty() && c.gap_error) r.fail("gap_error", "gap_error belongs to a known_gap mark");
  if (r.has("first_run_error")) c.first_run_error = r.number("first_run_error", -1e6, 1e6);
  r.finish();
  return c;
}

ValidationManifest read_from(const YamlSource& source) {
  YamlReader root(source, source.root, "", YAML::Node());
  const fs::path folder = fs::path(source.file).parent_path();
  const Catalog catalog = load_builtin_catalog();
  ValidationManifest manifest{source.file, {}};
  std::set<std::string> names;
  for (auto& entry : root.map_list("cases")) {
    ValidationCase c = read_case(entry, folder, catalog);
    if (!names.insert(c.name).second) entry.fail("name", "a second case named '" + c.name + "'");
    manifest.cases.push_back(std::move(c));
  }
  root.finish();
  return manifest;
}

}  // namespace

ValidationManifest read_validation_manifest(const std::string& path) {
  return read_from(load_yaml_file(path));
}

ValidationManifest read_validation_manifest_text(const std::string& text, const std::string& file) {
  return read_from(load_yaml_text(text, file));
}

}  // namespace rlsim

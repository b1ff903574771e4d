// Parsing of the distribution forms listed in distribution_reader.h.
#include "sim/scenario/distribution_reader.h"

#include <algorithm>
#include <cmath>

namespace rlsim {
namespace {

double read_value(YamlReader& r, const std::string& key, std::optional<Quantity> unit, double min_allowed,
                  double max_allowed) {
  if (!unit) return r.number(key, min_allowed, max_allowed);
  const double value = r.quantity(key, *unit, min_allowed <= 0.0);
  if (value > max_allowed)
    r.fail(key, "expected at most " + format_quantity(max_allowed, *unit) + " for '" + key + "', found " +
                    format_quantity(value, *unit));
  return value;
}

/// An optional bound: absent, it is `fallback` (0: no bound) and resolved.yaml leaves it out, so an
/// uncapped distribution does not read as capped at 0.
double read_bound_or(YamlReader& r, const std::string& key, std::optional<Quantity> unit, double fallback,
                     double max_allowed) {
  if (!r.has(key)) {
    if (fallback != 0.0)
      r.record(key, YAML::Node(unit ? format_quantity(fallback, *unit) : format_number(fallback)));
    return fallback;
  }
  return read_value(r, key, unit, 0.0, max_allowed);
}

YAML::Node resolved_scalar(double value, std::optional<Quantity> unit) {
  return YAML::Node(unit ? format_quantity(value, *unit) : format_number(value));
}

/// A default distribution in its canonical written form.
YAML::Node default_node(const Distribution& fallback, std::optional<Quantity> unit) {
  if (fallback.kind == Distribution::Kind::fixed) return resolved_scalar(fallback.value, unit);
  YAML::Node resolved(YAML::NodeType::Map);
  resolved["fixed"] = resolved_scalar(fallback.nominal_mean(), unit);
  return resolved;
}

}  // namespace

double Distribution::largest() const {
  double top = 0.0;
  switch (kind) {
    case Kind::fixed: top = value; break;
    case Kind::uniform: top = high; break;
    case Kind::empirical:
      for (const auto& [bin, weight] : bins)
        if (weight > 0.0) top = std::max(top, bin);
      break;
    case Kind::normal:
    case Kind::lognormal:
      if (max <= 0.0) return 0.0;  // unbounded but for the physical limit, which says nothing here
      top = max;
      break;
  }
  if (max > 0.0) top = std::min(top, max);
  return std::max(top, min);
}

double Distribution::nominal_mean() const {
  switch (kind) {
    case Kind::fixed: return value;
    case Kind::uniform: return (low + high) / 2.0;
    case Kind::normal:
    case Kind::lognormal: return mean;
    case Kind::empirical: {
      double total = 0.0, weighted = 0.0;
      for (const auto& [v, w] : bins) {
        total += w;
        weighted += v * w;
      }
      return total > 0.0 ? weighted / total : 0.0;
    }
  }
  return 0.0;
}

Distribution read_distribution(YamlReader& parent, const Field& field, std::optional<Quantity> unit,
                               const Distribution& fallback, double min_allowed, double max_allowed) {
  const std::string& key = field.key;
  FieldDoc doc{"", "distribution", "", "", "", "", {}};
  doc.default_text = YAML::Dump(default_node(fallback, unit));
  doc.range = "a number from " + format_number(min_allowed) + " to " +
              (unit ? format_quantity(max_allowed, *unit) : format_number(max_allowed)) +
              ", or {fixed | uniform | normal | lognormal | empirical: …} with optional min/max caps";
  if (unit) doc.unit = field_doc(ParamSpec::quantity_of(key, *unit, 0.0, "")).unit;
  parent.describe(field, doc);
  YAML::Node node = parent.raw(key);
  if (!node || node.IsNull()) {
    parent.record(key, default_node(fallback, unit));
    Distribution d = fallback;
    d.limit = max_allowed;
    return d;
  }
  Distribution d;
  d.limit = max_allowed;
  if (node.IsScalar()) {
    std::string why;
    double value = 0.0;
    bool ok = false;
    if (unit) {
      auto parsed = parse_quantity(node.Scalar(), *unit, &why);
      ok = parsed.has_value();
      value = parsed.value_or(0.0);
    } else {
      const std::optional<double> parsed = parse_number(node.Scalar());
      ok = parsed.has_value();
      value = parsed.value_or(0.0);
      why = "a number or a distribution such as {lognormal: {mean: 1024, sigma: 1.0}}";
    }
    if (!ok || value < min_allowed || value > max_allowed) {
      // A value that parsed but lies outside the field's range leaves `why` empty.
      if (why.empty()) why = unit ? std::string(quantity_examples(*unit)) : "a number";
      parent.fail(key, "expected " + why + " for '" + key + "' (from " + format_number(min_allowed) + " to " +
                           (unit ? format_quantity(max_allowed, *unit) : format_number(max_allowed)) +
                           "), found '" + node.Scalar() + "'");
    }
    parent.record(key, resolved_scalar(value, unit));
    d = fixed_distribution(value);
    d.limit = max_allowed;
    return d;
  }
  YamlReader r = parent.map(key);
  int forms = 0;
  for (const char* form : {"fixed", "uniform", "normal", "lognormal", "empirical"})
    forms += r.has(form) ? 1 : 0;
  if (forms != 1) {
    r.fail_here("expected exactly one of fixed, uniform, normal, lognormal or empirical in '" + key + "'");
  }
  if (r.has("fixed")) {
    d.kind = Distribution::Kind::fixed;
    d.value = read_value(r, "fixed", unit, min_allowed, max_allowed);
  } else if (r.has("uniform")) {
    d.kind = Distribution::Kind::uniform;
    YamlReader u = r.map("uniform");
    d.low = read_value(u, "min", unit, min_allowed, max_allowed);
    d.high = read_value(u, "max", unit, min_allowed, max_allowed);
    if (d.high < d.low) u.fail("max", "uniform 'max' must not be below 'min'");
    u.finish();
  } else if (r.has("normal")) {
    d.kind = Distribution::Kind::normal;
    YamlReader n = r.map("normal");
    d.mean = read_value(n, "mean", unit, min_allowed, max_allowed);
    // A spread wider than the field's range would have most draws clamped at its bound.
    d.spread = unit ? n.quantity("stddev", *unit, true) : n.number("stddev", 0.0, max_allowed);
    if (d.spread > max_allowed)
      n.fail("stddev", "expected a stddev of at most " +
                           (unit ? format_quantity(max_allowed, *unit) : format_number(max_allowed)) +
                           ", the field's largest value");
    n.finish();
  } else if (r.has("lognormal")) {
    d.kind = Distribution::Kind::lognormal;
    YamlReader n = r.map("lognormal");
    d.mean = read_value(n, "mean", unit, std::max(min_allowed, 1e-300), max_allowed);
    d.spread = n.number("sigma", 0.0, 10.0);
    n.finish();
  } else {
    d.kind = Distribution::Kind::empirical;
    YAML::Node bins = r.raw("empirical");
    if (!bins.IsSequence() || bins.size() == 0)
      r.fail("empirical", "expected a list of [value, weight] pairs");
    YAML::Node resolved_bins(YAML::NodeType::Sequence);
    for (const auto& bin : bins) {
      bool ok = bin.IsSequence() && bin.size() == 2 && bin[0].IsScalar() && bin[1].IsScalar();
      double value = 0.0, weight = 0.0;
      if (ok) {
        std::optional<double> v = unit ? parse_quantity(bin[0].Scalar(), *unit) : std::nullopt;
        // Whole cells only: "5abc" is not 5.
        const auto whole_number = [&ok](const std::string& text) {
          const std::optional<double> parsed = parse_number(text);
          ok = ok && parsed.has_value();
          return parsed.value_or(0.0);
        };
        value = unit ? v.value_or(-1.0) : whole_number(bin[0].Scalar());
        weight = whole_number(bin[1].Scalar());
        ok = ok && value >= min_allowed && value <= max_allowed && weight >= 0.0 && std::isfinite(value) &&
             std::isfinite(weight);
      }
      if (!ok) {
        throw InputError(r.source().locate(bin, r.path() + ".empirical"),
                         "expected a [value, weight] pair with value from " + format_number(min_allowed) +
                             " to " +
                             (unit ? format_quantity(max_allowed, *unit) : format_number(max_allowed)) +
                             " and weight >= 0 in 'empirical'");
      }
      d.bins.emplace_back(value, weight);
      YAML::Node pair(YAML::NodeType::Sequence);
      pair.push_back(resolved_scalar(value, unit));
      pair.push_back(format_number(weight));
      resolved_bins.push_back(pair);
    }
    if (std::none_of(d.bins.begin(), d.bins.end(), [](const auto& bin) { return bin.second > 0.0; }))
      r.fail("empirical", "expected at least one [value, weight] pair with a weight above 0");
    r.record("empirical", resolved_bins);
  }
  const Distribution defaults;
  d.min = read_bound_or(r, "min", unit, defaults.min, max_allowed);
  d.max = read_bound_or(r, "max", unit, defaults.max, max_allowed);
  if (d.max > 0.0 && d.max < d.min) r.fail("max", "cap 'max' must not be below 'min'");
  r.finish();
  return d;
}

}  // namespace rlsim

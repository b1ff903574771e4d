// verl's config read with a launch script's overrides (verl_config.h).
#include "sim/scenario/verl_config.h"

#include <fstream>
#include <sstream>

namespace rlsim {
namespace {

std::vector<std::string> dotted(const std::string& key) {
  std::vector<std::string> parts;
  std::istringstream in(key);
  for (std::string part; std::getline(in, part, '.');) parts.push_back(part);
  return parts;
}

SourceLocation mark_of(const std::string& file, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return m.is_null() ? SourceLocation{file, 0, 0} : SourceLocation{file, m.line + 1, m.column + 1};
}

}  // namespace

VerlConfig VerlConfig::parse(const std::string& text, const std::string& file,
                             const std::vector<std::string>& overrides) {
  VerlConfig c;
  c.file_ = file;
  try {
    c.root_ = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError({file, e.mark.line + 1, e.mark.column + 1}, "not YAML: " + e.msg);
  }
  if (c.root_.IsNull()) c.root_ = YAML::Node(YAML::NodeType::Map);
  if (!c.root_.IsMap())
    throw InputError(
        {file, 1, 1},
        "expected a verl trainer config: a mapping of sections (data, actor_rollout_ref, trainer, ...)");
  for (size_t i = 0; i < overrides.size(); ++i) c.apply(overrides[i], static_cast<int>(i));
  return c;
}

VerlConfig VerlConfig::load(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0}, "cannot read the file (check the path)");
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), path, overrides);
}

void VerlConfig::apply(const std::string& text, int index) {
  const SourceLocation at{"override " + std::to_string(index + 1) + " '" + text + "'", 0, 0};
  std::string body = text;
  bool remove = false;
  if (body.rfind("++", 0) == 0)
    body = body.substr(2);
  else if (!body.empty() && (body[0] == '+' || body[0] == '~')) {
    remove = body[0] == '~';
    body = body.substr(1);
  }
  const size_t eq = body.find('=');
  const std::string key = remove ? body.substr(0, eq) : (eq == std::string::npos ? "" : body.substr(0, eq));
  if (key.empty())
    throw InputError(at,
                     "expected key=value (a Hydra override as in verl's launch scripts: "
                     "actor_rollout_ref.rollout.n=5, +key=value, ~key)");
  const std::vector<std::string> parts = dotted(key);
  YAML::Node parent = root_;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node child = parent[parts[i]];
    if (!child.IsDefined() || !child.IsMap()) {
      if (remove) return;  // nothing to remove
      parent[parts[i]] = YAML::Node(YAML::NodeType::Map);
      child = parent[parts[i]];
    }
    parent.reset(child);
  }
  if (remove) {
    parent.remove(parts.back());
    return;
  }
  YAML::Node value;
  try {
    value = YAML::Load(body.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw InputError(at, "the value is not YAML: " + e.msg);
  }
  parent[parts.back()] = value;
  overridden_.emplace_back(key, at.file);
}

std::optional<YAML::Node> VerlConfig::node(const std::string& key) const {
  std::vector<YAML::Node> path{root_};
  for (const std::string& part : dotted(key)) {
    const YAML::Node& at = path.back();
    if (!at.IsMap()) return std::nullopt;
    const YAML::Node next = at[part];
    if (!next.IsDefined()) return std::nullopt;
    path.push_back(next);
  }
  return path.back();
}

std::optional<YAML::Node> VerlConfig::value(const std::string& key, int depth) const {
  std::optional<YAML::Node> n = node(key);
  if (!n || n->IsNull()) return std::nullopt;
  if (!n->IsScalar() || depth > 8) return n;
  const std::string text = n->Scalar();
  if (text.rfind("${", 0) != 0 || text.back() != '}' || text.find("${", 2) != std::string::npos) return n;
  const std::string inner = text.substr(2, text.size() - 3);
  const std::string select = "oc.select:";
  if (inner.rfind(select, 0) == 0) {
    const std::string args = inner.substr(select.size());
    const size_t comma = args.find(',');
    if (auto target = value(args.substr(0, comma), depth + 1)) return target;
    if (comma == std::string::npos) return std::nullopt;
    return YAML::Load(args.substr(comma + 1));
  }
  return value(inner, depth + 1);
}

SourceLocation VerlConfig::where(const std::string& key) const {
  for (auto it = overridden_.rbegin(); it != overridden_.rend(); ++it) {
    if (it->first == key) return {it->second, 0, 0};
  }
  const std::optional<YAML::Node> n = node(key);
  return n ? mark_of(file_, *n) : SourceLocation{file_, 0, 0};
}

std::string VerlConfig::text_or(const std::string& key, const std::string& fallback) const {
  const std::optional<YAML::Node> n = value(key);
  if (!n) return fallback;
  if (!n->IsScalar()) throw InputError(where(key), key + ": expected a single value");
  return n->Scalar();
}

namespace {

/// `n` as a T, or InputError at `where` saying what was `expected`.
template <class T>
T converted(const YAML::Node& n, const SourceLocation& where, const std::string& key, const char* expected) {
  try {
    return n.as<T>();
  } catch (const YAML::Exception&) {
    throw InputError(
        where, key + ": expected " + expected + ", not '" + (n.IsScalar() ? n.Scalar() : "a mapping") + "'");
  }
}

}  // namespace

double VerlConfig::number_or(const std::string& key, double fallback) const {
  const std::optional<YAML::Node> n = value(key);
  return n ? converted<double>(*n, where(key), key, "a number") : fallback;
}

long long VerlConfig::integer_or(const std::string& key, long long fallback) const {
  const std::optional<YAML::Node> n = value(key);
  return n ? converted<long long>(*n, where(key), key, "a whole number") : fallback;
}

bool VerlConfig::flag_or(const std::string& key, bool fallback) const {
  const std::optional<YAML::Node> n = value(key);
  return n ? converted<bool>(*n, where(key), key, "True or False") : fallback;
}

}  // namespace rlsim

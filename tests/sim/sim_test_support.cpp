// Figures by name and the forked child that produces them (see sim_test_support.h).
#include "tests/sim/sim_test_support.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "sim/process/child_pool.h"

namespace rlsim::test {
namespace {

std::string exact(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// strtod rather than stod: stod throws on a subnormal value, which %.17g writes faithfully.
double number(const std::string& word, const std::string& name) {
  char* end = nullptr;
  const double value = std::strtod(word.c_str(), &end);
  if (word.empty() || *end != '\0')
    throw std::runtime_error("figure '" + name + "' is not a number: " + word);
  return value;
}

}  // namespace

void Figures::set(const std::string& name, double value) { set_text(name, exact(value)); }

void Figures::set_text(const std::string& name, const std::string& value) {
  assert(name.find_first_of("=\n") == std::string::npos && value.find('\n') == std::string::npos &&
         "a figure's name holds no '=' or newline, its value no newline");
  values_[name] = value;
}

void Figures::set_list(const std::string& name, const std::vector<double>& values) {
  std::string joined;
  for (double value : values) joined += (joined.empty() ? "" : " ") + exact(value);
  set_text(name, joined);
}

const std::string& Figures::text(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::out_of_range("the child reported no figure '" + name + "'");
  return it->second;
}

double Figures::at(const std::string& name) const { return number(text(name), name); }

std::vector<double> Figures::list(const std::string& name) const {
  std::istringstream in(text(name));
  std::vector<double> values;
  for (std::string word; in >> word;) values.push_back(number(word, name));
  return values;
}

std::vector<std::string> Figures::names() const {
  std::vector<std::string> names;
  for (const auto& [name, value] : values_) names.push_back(name);
  return names;
}

std::string Figures::serialise() const {
  std::string text;
  for (const auto& [name, value] : values_) text += name + "=" + value + "\n";
  return text;
}

Figures Figures::parse(const std::string& text) {
  Figures figures;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const size_t equals = line.find('=');
    if (equals == std::string::npos) throw std::runtime_error("not a figure line: " + line);
    figures.values_[line.substr(0, equals)] = line.substr(equals + 1);
  }
  return figures;
}

Figures figures_in_child(const std::function<Figures()>& body) {
  // ChildPool reads a reply once its child has ended, so a longer reply than the pipe's buffer
  // holds (64 KiB on Linux) would leave both waiting: a few dozen figures, never a timeline.
  constexpr size_t kMaxReplyBytes = 60000;
  auto work = [&](long) {
    std::string reply = body().serialise();
    if (reply.size() > kMaxReplyBytes) throw std::runtime_error("too many figures for one pipe");
    return reply;
  };
  std::string reply;
  const ChildOutcome failure =
      run_in_children({0}, 1, work, [&](const ChildOutcome& done) { reply = done.text; });
  if (!failure.ok) throw std::runtime_error("child failed: " + failure.text);
  return Figures::parse(reply);
}

}  // namespace rlsim::test

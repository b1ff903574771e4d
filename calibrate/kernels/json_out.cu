// Writing the measurements JSON by hand (the suite has no JSON library; the layout is flat).
#include <fstream>

#include "suite.h"

namespace rlsim_kernels {
namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string number(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", x);
  return text;
}

}  // namespace

bool write_measurements(const std::string& path, const std::string& date, const DeviceInfo& d,
                        const std::vector<Point>& points) {
  const std::string temp = path + ".partial";
  {
    std::ofstream out(temp, std::ios::binary);
    if (!out) return false;
    out << "{\n  \"format\": \"rlsim-measurements\",\n  \"version\": 1,\n  \"date\": " << quoted(date)
        << ",\n";
    out << "  \"device\": {\"name\": " << quoted(d.name) << ", \"sm_count\": " << d.sm_count
        << ", \"l2_bytes\": " << number(d.l2_bytes) << ", \"compute_capability\": "
        << quoted(std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor))
        << ", \"sm_clock_mhz\": " << number(d.sm_clock_mhz)
        << ", \"memory_clock_mhz\": " << number(d.memory_clock_mhz)
        << ", \"memory_bus_bits\": " << d.memory_bus_bits << ", \"driver_version\": " << d.driver_version
        << ", \"cuda_runtime_version\": " << d.runtime_version << "},\n";
    out << "  \"points\": [\n";
    for (size_t i = 0; i < points.size(); ++i) {
      const Point& p = points[i];
      out << "    {\"op\": " << quoted(p.op) << ", \"name\": " << quoted(p.name);
      if (!p.model.empty()) out << ", \"model\": " << quoted(p.model);
      out << ", \"dtype\": " << quoted(p.dtype);
      for (const auto& [key, value] : p.fields) out << ", " << quoted(key) << ": " << value;
      out << ", \"seconds\": " << number(p.seconds) << ", \"flops\": " << number(p.flops)
          << ", \"bytes\": " << number(p.bytes);
      if (!p.note.empty()) out << ", \"note\": " << quoted(p.note);
      out << "}" << (i + 1 < points.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
    if (!out) return false;
  }
  return std::rename(temp.c_str(), path.c_str()) == 0;
}

}  // namespace rlsim_kernels

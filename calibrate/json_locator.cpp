// A one-pass scanner of valid JSON recording the offset of every value by its pointer.
#include "calibrate/json_locator.h"

#include <cctype>
#include <vector>

#include "models/text_encoding.h"

namespace rlsim {
namespace {

struct Scanner {
  const std::string& text;
  std::map<std::string, size_t>& offsets;
  size_t pos = 0;

  void skip_space() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  }
  std::string read_string() {
    std::string out;
    ++pos;  // opening quote
    while (pos < text.size() && text[pos] != '"') {
      if (text[pos] == '\\') ++pos;
      if (pos < text.size()) out += text[pos++];
    }
    ++pos;  // closing quote
    return out;
  }
  void value(const std::string& pointer, int depth) {
    skip_space();
    offsets[pointer] = pos;
    if (pos >= text.size() || depth > 64) return;
    const char c = text[pos];
    if (c == '{') {
      ++pos;
      while (true) {
        skip_space();
        if (pos >= text.size() || text[pos] == '}') break;
        if (text[pos] == ',') {
          ++pos;
          continue;
        }
        const std::string key = read_string();
        skip_space();
        ++pos;  // colon
        value(pointer + "/" + key, depth + 1);
      }
      ++pos;
    } else if (c == '[') {
      ++pos;
      int index = 0;
      while (true) {
        skip_space();
        if (pos >= text.size() || text[pos] == ']') break;
        if (text[pos] == ',') {
          ++pos;
          continue;
        }
        value(pointer + "/" + std::to_string(index++), depth + 1);
      }
      ++pos;
    } else if (c == '"') {
      read_string();
    } else {
      while (pos < text.size() && text[pos] != ',' && text[pos] != '}' && text[pos] != ']' &&
             !std::isspace(static_cast<unsigned char>(text[pos]))) {
        ++pos;
      }
    }
  }
};

}  // namespace

JsonLocator::JsonLocator(const std::string& text, std::string file) : file_(std::move(file)), text_(&text) {
  Scanner scanner{text, offsets_};
  scanner.value("", 0);
}

SourceLocation JsonLocator::at_offset(size_t offset) const { return location_at(*text_, offset, file_); }

SourceLocation JsonLocator::where(std::string pointer) const {
  while (true) {
    auto it = offsets_.find(pointer);
    if (it != offsets_.end()) return at_offset(it->second);
    const size_t slash = pointer.rfind('/');
    if (slash == std::string::npos) return {file_, 1, 1};
    pointer.resize(slash);
  }
}

}  // namespace rlsim

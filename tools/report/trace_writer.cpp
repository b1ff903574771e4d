// Spilling a trace's text to its stream between events.
#include "tools/report/trace_writer.h"

namespace rlsim {

void TraceWriter::begin_event() {
  if (text_.size() >= kSpillBytes) flush();
  if (events_++ > 0) text_ += ',';
}

void TraceWriter::flush() {
  stream_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
  text_.clear();
}

}  // namespace rlsim

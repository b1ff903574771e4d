// TraceWriter: a trace file's text written event by event to a stream, a megabyte at a time, so
// that a trace of hundreds of megabytes (16,384 GPUs: 0.5 GB) is never held whole in memory. Events
// are appended to text() after begin_event(), which also puts the comma between two events.
#pragma once

#include <ostream>
#include <string>

namespace rlsim {

class TraceWriter {
 public:
  explicit TraceWriter(std::ostream& stream) : stream_(stream) {}
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;
  ~TraceWriter() { flush(); }

  /// Where the next event's text goes (after begin_event()).
  std::string& text() { return text_; }
  /// Starts an event: the comma after the previous one, if any; the text so far goes to the stream
  /// once it passes a megabyte.
  void begin_event();
  /// Events begun so far.
  long events() const { return events_; }
  /// Hands everything appended so far to the stream.
  void flush();

 private:
  static constexpr size_t kSpillBytes = size_t{1} << 20;
  std::ostream& stream_;
  std::string text_;
  long events_ = 0;
};

}  // namespace rlsim

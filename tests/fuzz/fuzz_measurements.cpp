// Fuzzes the calibration importers: the first byte picks rlsim's JSON measurements, vidur's CSV or
// the serving CSV (iterations and whole batches), the rest is the file's text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "calibrate/csv_table.h"
#include "calibrate/rlsim_json_importer.h"
#include "calibrate/serving_importer.h"
#include "calibrate/vidur_importer.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  rlsim::fuzz::expect_located([&] {
    switch (data[0] % 3) {
      case 0: rlsim::import_rlsim_json_text(text, "measurements.json"); break;
      case 1: rlsim::import_vidur_table(rlsim::CsvTable::parse(text, "measurements.csv")); break;
      default: rlsim::import_serving_csv(rlsim::fuzz::scratch_file(text, ".csv")); break;
    }
  });
  return 0;
}

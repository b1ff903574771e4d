// The sweep CSV in process: number formatting, RFC 4180 quoting both ways, a table written and read
// back unchanged, rows appended one at a time, and what reading drops (a torn last line) or refuses
// (a whole row of the wrong width or without a point number, a file that is not a sweep CSV).
#include <catch2/catch.hpp>
#include <fstream>

#include "models/input_error.h"
#include "tests/cli/cli_support.h"
#include "tools/sweep/sweep_csv.h"

using namespace rlsim;
using rlsim::test::scratch_dir;
using rlsim::test::slurp;

TEST_CASE("csv_number writes %.6g: the same value, the same text") {
  CHECK(csv_number(2048) == "2048");
  CHECK(csv_number(0.1) == "0.1");
  CHECK(csv_number(1.0 / 3.0) == "0.333333");
  CHECK(csv_number(1234567.0) == "1.23457e+06");
  CHECK(csv_number(1e-7) == "1e-07");
  CHECK(csv_number(-2.5) == "-2.5");
  CHECK(csv_number(0.0) == "0");
}

TEST_CASE("cells with commas, quotes or newlines are quoted and read back as written") {
  const std::vector<std::string> cells{"plain", "a,b", "say \"hi\"", "two\nlines", "", "cr\r"};
  const std::string line = csv_line(cells);
  CHECK(line == "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",,\"cr\r\"");
  CHECK(csv_cells(line) == cells);
  CHECK(csv_cells("1,2,3") == std::vector<std::string>{"1", "2", "3"});
  CHECK(csv_cells("") == std::vector<std::string>{""});
}

TEST_CASE("a sweep table is written sorted by point and read back unchanged") {
  const auto dir = scratch_dir("csv-round-trip");
  SweepTable table;
  table.header = {"point", "cluster.pools.ffn.gpu", "tpot_s"};
  table.rows[10] = {"10", "H800", csv_number(31.25)};
  table.rows[2] = {"2", "H20,custom", csv_number(1.0 / 3.0)};
  write_sweep_csv(dir / "sweep.csv", table);
  CHECK(slurp(dir / "sweep.csv") ==
        "point,cluster.pools.ffn.gpu,tpot_s\n2,\"H20,custom\",0.333333\n10,H800,31.25\n");
  const SweepTable back = read_sweep_csv(dir / "sweep.csv");
  CHECK(back.header == table.header);
  CHECK(back.rows == table.rows);
  CHECK(back.column("tpot_s") == 2);
  CHECK(back.column("missing") == -1);
  CHECK(back.number(10, "tpot_s") == 31.25);
  CHECK(back.number(10, "missing") == 0.0);
  CHECK_FALSE(std::filesystem::exists(dir / ("sweep.csv.tmp-" + std::to_string(::getpid()))));
}

TEST_CASE("rows are appended as points finish, a torn last line is dropped, a misfit whole row refused") {
  const auto dir = scratch_dir("csv-append");
  const auto csv = dir / "sweep.csv";
  CHECK(read_sweep_csv(csv).header.empty());  // no file yet: an empty table
  const std::vector<std::string> header{"point", "a", "m"};
  append_sweep_row(csv, header, {"3", "x", "1.5"});
  append_sweep_row(csv, header, {"0", "y\nsecond line", "2"});  // a quoted newline inside a cell
  CHECK(slurp(csv) == "point,a,m\n3,x,1.5\n0,\"y\nsecond line\",2\n");
  const std::string whole = slurp(csv);
  std::ofstream(csv, std::ios::app | std::ios::binary) << "5,w,";  // torn: its newline never came
  SweepTable table = read_sweep_csv(csv);
  CHECK(table.header == header);
  REQUIRE(table.rows.size() == 2);
  CHECK(table.rows.at(0) == std::vector<std::string>{"0", "y\nsecond line", "2"});
  CHECK(table.rows.at(3) == std::vector<std::string>{"3", "x", "1.5"});
  // A whole row of the wrong width, or without a point number, was not cut short: refused at its
  // line (5: the header, row 3, then row 0 over two lines).
  for (const char* bad : {"1,too,many,cells\n", "not-a-point,z,3\n"}) {
    std::ofstream(csv, std::ios::trunc | std::ios::binary) << whole << bad;
    CHECK_THROWS_WITH(read_sweep_csv(csv),
                      Catch::StartsWith(csv.string() + ":5:1: error: expected a row of 3 cells"));
  }
}

TEST_CASE("a CSV whose first column is not 'point' is not a sweep CSV") {
  const auto dir = scratch_dir("csv-foreign");
  std::ofstream(dir / "other.csv") << "name,value\na,1\n";
  CHECK_THROWS_WITH(
      read_sweep_csv(dir / "other.csv"),
      (dir / "other.csv").string() + ":1:1: error: not a sweep CSV (its first column is not 'point')");
}

// run_cli: the whole `rlsim` command line (tools/cli/cli_main.cpp), for the executable and the
// Python package. Returns the exit code; prints to std::cout and std::cerr as the executable does.
#pragma once

namespace rlsim {

int run_cli(int argc, char** argv);

}  // namespace rlsim

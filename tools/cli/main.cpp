// rlsim's entry point: the command line (tools/cli/cli_main.h).
#include "tools/cli/cli_main.h"

int main(int argc, char** argv) { return rlsim::run_cli(argc, argv); }

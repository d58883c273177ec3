// pivot_solver_conformance: runs the solver conformance kit against a plugin.
// See sdk/conformance/README.md.
#include "pivot/conformance/kit.hpp"

int main(int argc, char** argv) { return pivot::conformance::run_main(argc, argv); }

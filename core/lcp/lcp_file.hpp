#pragma once
// The pivot-lcp/1 problem file (docs/cli.md): plain text,
// whitespace separated, '#' starts a comment line:
//   pivot-lcp/1
//   n
//   A (n*n numbers, row-major)
//   b (n)   lo (n)   hi (n)   (-inf / inf allowed)
//   findex (n)  (-1 or the index of the normal row)
// Any problem can be saved, shared and replayed bit for bit: numbers are
// written with 17 significant digits.
#include <filesystem>
#include <iosfwd>
#include <string>

#include "lcp/lcp_problem.hpp"

namespace pivot {

// Reads a file. Throws pivot::Error naming the file, the line and the field.
LcpProblem read_lcp_file(const std::filesystem::path& file);
// Reads from a stream; `name` is used in messages.
LcpProblem read_lcp(std::istream& in, const std::string& name);

// Writes the problem (dense A, built from CSC if needed).
void write_lcp(const LcpProblem& problem, std::ostream& out);
void write_lcp_file(const LcpProblem& problem, const std::filesystem::path& file);

}  // namespace pivot

// Fuzzes the pivot-lcp/1 reader (core/lcp/lcp_file.hpp): any bytes read as
// a problem file give a problem or throw pivot::Error naming the line and the
// field. A problem that reads is written and read again and must come back
// bit for bit (the format's promise: any problem can be saved, shared and
// replayed exactly); a difference aborts. Anything else is a finding: a
// crash, a sanitizer report, another exception (std::bad_alloc included), an
// allocation beyond libFuzzer's -rss_limit_mb.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "lcp/lcp_file.hpp"

namespace {

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

void check_round_trip(const pivot::LcpProblem& read) {
    std::ostringstream written;
    pivot::write_lcp(read, written);
    std::istringstream in(written.str());
    pivot::LcpProblem again;
    try {
        again = pivot::read_lcp(in, "fuzz.lcp (written back)");
    } catch (const pivot::Error& e) {
        std::fprintf(stderr, "fuzz_lcp_file: a problem that was read cannot be read back once written: %s\n",
                     e.what());
        std::abort();
    }
    if (again.n != read.n || !same_bits(again.dense, read.dense) || !same_bits(again.b, read.b) ||
        !same_bits(again.lo, read.lo) || !same_bits(again.hi, read.hi) || !same_bits(again.findex, read.findex) ||
        again.matrix_properties != read.matrix_properties) {
        std::fprintf(stderr, "fuzz_lcp_file: the problem written and read back differs (n = %u)\n", read.n);
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    pivot::LcpProblem problem;
    try {
        problem = pivot::read_lcp(in, "fuzz.lcp");
    } catch (const pivot::Error&) {
        return 0;
    }
    check_round_trip(problem);
    return 0;
}

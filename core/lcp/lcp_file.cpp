#include "lcp/lcp_file.hpp"

#include <cerrno>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/input_limits.hpp"

namespace pivot {

namespace {

// Tokens with their line numbers; '#' comments (to the end of the line).
class Tokens {
public:
    Tokens(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

    // The next token, or empty at the end of the input.
    std::string next() {
        while (pos_ >= line_.size()) {
            if (!std::getline(in_, line_)) return {};
            ++line_number_;
            if (auto hash = line_.find('#'); hash != std::string::npos) line_.resize(hash);
            pos_ = 0;
        }
        const size_t start = line_.find_first_not_of(" \t\r\f\v", pos_);
        if (start == std::string::npos) {
            pos_ = line_.size();
            return next();
        }
        const size_t end = line_.find_first_of(" \t\r\f\v", start);
        pos_ = end == std::string::npos ? line_.size() : end;
        return line_.substr(start, pos_ - start);
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw Error(fmt::format("{}:{}: {}", name_, line_number_, what));
    }

    // A number for field `name[i]` or `name(i, j)` (j >= 0); the field's name
    // is formatted only for a message.
    double number(const char* name, long i, long j, bool allow_infinite) {
        const std::string t = next();
        auto field_text = [&] { return j >= 0 ? fmt::format("{}({}, {})", name, i, j) : fmt::format("{}[{}]", name, i); };
        if (t.empty()) fail(fmt::format("the file ends before {}", field_text()));
        if (t == "inf" || t == "+inf" || t == "Inf" || t == "+Inf") {
            if (allow_infinite) return HUGE_VAL;
            fail(fmt::format("{} must be finite, got '{}'", field_text(), t));
        }
        if (t == "-inf" || t == "-Inf") {
            if (allow_infinite) return -HUGE_VAL;
            fail(fmt::format("{} must be finite, got '{}'", field_text(), t));
        }
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(t.c_str(), &end);
        if (end != t.c_str() + t.size() || std::isnan(v) || (!allow_infinite && std::isinf(v))) {
            fail(fmt::format("{}: '{}' is not a {}number", field_text(), t, allow_infinite ? "" : "finite "));
        }
        return v;
    }

    long integer(const std::string& field) {
        const std::string t = next();
        if (t.empty()) fail(fmt::format("the file ends before {}", field));
        char* end = nullptr;
        const long v = std::strtol(t.c_str(), &end, 10);
        if (end != t.c_str() + t.size()) fail(fmt::format("{}: '{}' is not an integer", field, t));
        return v;
    }

private:
    std::istream& in_;
    std::string name_;
    std::string line_;
    size_t pos_ = 0;
    size_t line_number_ = 0;
};

std::string format_number(double v) {
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return fmt::format("{:.17g}", v);
}

}  // namespace

LcpProblem read_lcp(std::istream& in, const std::string& name) {
    Tokens t(in, name);
    const std::string magic = t.next();
    if (magic != "pivot-lcp/1") {
        t.fail(fmt::format("expected the format tag 'pivot-lcp/1', got '{}'", magic));
    }
    const long n = t.integer("n");
    if (n < 0 || n > 1000000) t.fail(fmt::format("n = {} is not a size (0..1000000)", n));
    LcpProblem p;
    p.n = static_cast<uint32_t>(n);
    const size_t size = static_cast<size_t>(n);
    // Storage grows with the numbers actually read (each takes at least two
    // bytes of the file), never with the declared n alone: a 19-byte file
    // declaring n = 10^6 ends with "the file ends before ...", not with
    // terabytes allocated.
    std::vector<double> rows;  // A row by row as in the file
    rows.reserve(std::min<size_t>(size * size, size_t{1} << 16));
    for (size_t i = 0; i < size; ++i) {
        for (size_t j = 0; j < size; ++j) {
            rows.push_back(t.number("A", static_cast<long>(i), static_cast<long>(j), false));
        }
    }
    p.dense.assign(size * size, 0.0);
    for (size_t i = 0; i < size; ++i) {
        for (size_t j = 0; j < size; ++j) p.dense[i + j * size] = rows[i * size + j];  // column-major in memory
    }
    rows = {};
    auto vector = [&](const char* name_of, bool infinite) {
        std::vector<double> v;
        for (size_t i = 0; i < size; ++i) v.push_back(t.number(name_of, static_cast<long>(i), -1, infinite));
        return v;
    };
    p.b = vector("b", false);
    p.lo = vector("lo", true);
    p.hi = vector("hi", true);
    p.findex.resize(size);
    for (size_t i = 0; i < size; ++i) {
        const std::string field = fmt::format("findex[{}]", i);
        const long f = t.integer(field);
        if (f < -1 || f >= n || f == static_cast<long>(i)) {
            t.fail(fmt::format("{} = {} must be -1 or another row (0..{})", field, f, n - 1));
        }
        p.findex[i] = static_cast<int32_t>(f);
    }
    // A friction row's bounds scale with a normal row's impulse: the row it
    // names must have no friction index itself (no chains, no cycles).
    for (size_t i = 0; i < size; ++i) {
        const int32_t f = p.findex[i];
        if (f >= 0 && p.findex[static_cast<size_t>(f)] >= 0) {
            t.fail(fmt::format("findex[{}] = {} names a row that has a friction index itself (findex[{}] = {}); it "
                               "must name a normal row (findex -1)",
                               i, f, f, p.findex[static_cast<size_t>(f)]));
        }
    }
    for (size_t i = 0; i < size; ++i) {
        if (p.lo[i] > p.hi[i] || p.lo[i] == HUGE_VAL || p.hi[i] == -HUGE_VAL) {
            t.fail(fmt::format("row {}: lo = {} and hi = {} are not an interval", i, format_number(p.lo[i]),
                               format_number(p.hi[i])));
        }
        if (p.findex[i] >= 0 && (!std::isfinite(p.lo[i]) || !std::isfinite(p.hi[i]) || p.lo[i] > 0 || p.hi[i] < 0)) {
            t.fail(fmt::format("row {}: with findex, lo and hi are friction multipliers and must be finite with "
                               "lo <= 0 <= hi (got {}, {})",
                               i, format_number(p.lo[i]), format_number(p.hi[i])));
        }
    }
    if (const std::string extra = t.next(); !extra.empty()) {
        t.fail(fmt::format("unexpected '{}' after the last findex", extra));
    }
    p.detect_symmetry();
    return p;
}

LcpProblem read_lcp_file(const std::filesystem::path& file) {
    std::istringstream in(read_input_file(file, "LCP file"));
    return read_lcp(in, file.string());
}

void write_lcp(const LcpProblem& problem, std::ostream& out) {
    LcpProblem dense_copy;
    const LcpProblem* p = &problem;
    if (!problem.has_dense()) {
        dense_copy = problem;
        dense_copy.make_dense();
        p = &dense_copy;
    }
    const size_t n = p->n;
    out << "pivot-lcp/1\n";
    if (problem.has_blocks()) {
        // pivot-lcp/1 has no block projections: the file holds the box rows
        // the projecting friction model also writes, a different problem.
        out << "# note: " << problem.block_first_row.size() - 1
            << " rows blocks had a friction model's projection (e.g. the circular cone), which this format cannot "
               "hold: solving this file solves their box rows\n";
    }
    out << n << "\n";
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < n; ++j) out << (j ? " " : "") << format_number(p->dense[i + j * n]);
        out << "\n";
    }
    auto vector = [&](const std::vector<double>& v) {
        for (size_t i = 0; i < n; ++i) out << (i ? " " : "") << format_number(v[i]);
        out << "\n";
    };
    vector(p->b);
    vector(p->lo);
    vector(p->hi);
    for (size_t i = 0; i < n; ++i) out << (i ? " " : "") << (p->findex.empty() ? -1 : p->findex[i]);
    out << "\n";
}

void write_lcp_file(const LcpProblem& problem, const std::filesystem::path& file) {
    std::ofstream out(file);
    if (!out) throw Error(fmt::format("{}: cannot be written", file.string()));
    write_lcp(problem, out);
    if (!out) throw Error(fmt::format("{}: write failed", file.string()));
}

}  // namespace pivot

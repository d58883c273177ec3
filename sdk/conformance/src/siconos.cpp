#include "pivot/conformance/siconos.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

namespace pivot::conformance {

namespace {

// Whitespace-separated tokens with their line numbers, for messages.
class Tokens {
public:
    explicit Tokens(const std::filesystem::path& file) : file_(file.string()) {
        std::ifstream in(file);
        if (!in) throw Error(fmt::format("{}: cannot open the file", file_));
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            std::istringstream words(line);
            std::string word;
            while (words >> word) tokens_.push_back({word, number});
        }
    }

    double number(const std::string& field) {
        const Token& t = next(field);
        errno = 0;
        char* end = nullptr;
        const double v = std::strtod(t.text.c_str(), &end);
        if (end == t.text.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(v)) {
            fail(t, field, "is not a finite number");
        }
        return v;
    }

    uint32_t count(const std::string& field, uint64_t max = 100000000) {
        const Token& t = next(field);
        char* end = nullptr;
        const long long v = std::strtoll(t.text.c_str(), &end, 10);
        if (end == t.text.c_str() || *end != '\0' || v < 0 || static_cast<uint64_t>(v) > max) {
            fail(t, field, fmt::format("is not a whole number in 0..{}", max));
        }
        return static_cast<uint32_t>(v);
    }

    [[noreturn]] void error(const std::string& what) const {
        const int line = position_ > 0 ? tokens_[position_ - 1].line : 1;
        throw Error(fmt::format("{}:{}: {}", file_, line, what));
    }

    const std::string& file() const { return file_; }

private:
    struct Token {
        std::string text;
        int line = 0;
    };

    const Token& next(const std::string& field) {
        if (position_ >= tokens_.size()) {
            throw Error(fmt::format("{}: the file ends before {}", file_, field));
        }
        return tokens_[position_++];
    }

    [[noreturn]] void fail(const Token& t, const std::string& field, const std::string& why) const {
        throw Error(fmt::format("{}:{}: {} '{}' {}", file_, t.line, field, t.text, why));
    }

    std::string file_;
    std::vector<Token> tokens_;
    size_t position_ = 0;
};

// Reads the sizes `count` cumulative block sizes and checks they increase
// up to `total`.
std::vector<uint32_t> cumulative_sizes(Tokens& t, uint32_t count, uint32_t total, const char* what) {
    std::vector<uint32_t> sizes(count);
    uint32_t previous = 0;
    for (uint32_t k = 0; k < count; ++k) {
        sizes[k] = t.count(fmt::format("{} {}", what, k));
        if (sizes[k] <= previous) t.error(fmt::format("{} must increase ({} after {})", what, sizes[k], previous));
        previous = sizes[k];
    }
    if (count > 0 && previous != total) {
        t.error(fmt::format("{} end at {}, but the matrix has {}", what, previous, total));
    }
    return sizes;
}

// A Siconos matrix of n x n, as a dense column-major vector.
std::vector<double> read_matrix(Tokens& t, uint32_t n) {
    const uint32_t storage = t.count("the matrix storage type");
    const uint32_t rows = t.count("the matrix row count");
    const uint32_t cols = t.count("the matrix column count");
    if (rows != n || cols != n) t.error(fmt::format("the matrix is {} x {}, expected {} x {}", rows, cols, n, n));
    std::vector<double> m(static_cast<size_t>(n) * n, 0.0);
    if (storage == 0) {
        const uint32_t rows_again = t.count("the dense matrix row count");
        const uint32_t cols_again = t.count("the dense matrix column count");
        if (rows_again != rows || cols_again != cols) {
            t.error(fmt::format("dense sizes {} x {} differ from {} x {}", rows_again, cols_again, rows, cols));
        }
        // Column-major: the first n numbers are column 0.
        for (size_t k = 0; k < m.size(); ++k) {
            m[k] = t.number(fmt::format("M({}, {})", k % n, k / n));
        }
        return m;
    }
    if (storage == 2) {
        throw UnsupportedSiconosStorage(fmt::format("{}: matrix storage type 2 (general sparse) is not supported",
                                                    t.file()));
    }
    if (storage != 1) t.error(fmt::format("unknown matrix storage type {}", storage));

    const uint32_t block_count = t.count("nbblocks");
    const uint32_t block_rows = t.count("blocknumber0");
    const uint32_t block_cols = t.count("blocknumber1");
    const std::vector<uint32_t> row_end = cumulative_sizes(t, block_rows, n, "cumulative block-row sizes");
    const std::vector<uint32_t> col_end = cumulative_sizes(t, block_cols, n, "cumulative block-column sizes");
    const uint32_t filled1 = t.count("filled1");
    const uint32_t filled2 = t.count("filled2");
    if (filled1 != block_rows + 1 || filled2 != block_count) {
        t.error(fmt::format("filled1 = {} and filled2 = {} do not match {} block rows and {} blocks", filled1, filled2,
                            block_rows, block_count));
    }
    std::vector<uint32_t> row_pointer(filled1);
    for (uint32_t k = 0; k < filled1; ++k) {
        row_pointer[k] = t.count("block-row pointer");
        if (k > 0 && row_pointer[k] < row_pointer[k - 1]) t.error("block-row pointers must not decrease");
    }
    if (row_pointer.front() != 0 || row_pointer.back() != block_count) {
        t.error("block-row pointers must run from 0 to the number of blocks");
    }
    std::vector<uint32_t> column_index(filled2);
    for (uint32_t k = 0; k < filled2; ++k) {
        column_index[k] = t.count("block-column index");
        if (column_index[k] >= block_cols) t.error(fmt::format("block-column index {} is out of range", column_index[k]));
    }
    // Block k (storage order) sits in block row r with row_pointer[r] <= k <
    // row_pointer[r+1] and block column column_index[k].
    std::vector<uint32_t> block_row(block_count);
    for (uint32_t r = 0; r < block_rows; ++r) {
        for (uint32_t k = row_pointer[r]; k < row_pointer[r + 1]; ++k) block_row[k] = r;
    }
    std::vector<bool> seen(block_count, false);
    for (uint32_t b = 0; b < block_count; ++b) {
        const uint32_t k = t.count("block number", block_count == 0 ? 0 : block_count - 1);
        if (seen[k]) t.error(fmt::format("block {} appears twice", k));
        seen[k] = true;
        const uint32_t r = block_row[k];
        const uint32_t c = column_index[k];
        const uint32_t r0 = r == 0 ? 0 : row_end[r - 1];
        const uint32_t c0 = c == 0 ? 0 : col_end[c - 1];
        for (uint32_t j = c0; j < col_end[c]; ++j) {
            for (uint32_t i = r0; i < row_end[r]; ++i) {
                m[i + static_cast<size_t>(j) * n] = t.number(fmt::format("block {} entry M({}, {})", k, i, j));
            }
        }
    }
    return m;
}

}  // namespace

sdk::LcpData read_siconos_lcp(const std::filesystem::path& file) {
    Tokens t(file);
    const uint32_t n = t.count("the size n", 100000);
    std::vector<double> m = read_matrix(t, n);
    std::vector<double> q(n);
    for (uint32_t i = 0; i < n; ++i) q[i] = t.number(fmt::format("q[{}]", i));
    sdk::LcpData p = sdk::LcpData::standard(n, std::move(m), std::move(q));
    p.detect_symmetry();
    return p;
}

FrictionContactProblem read_siconos_friction_contact(const std::filesystem::path& file) {
    Tokens t(file);
    FrictionContactProblem p;
    p.dimension = t.count("the dimension");
    if (p.dimension != 2 && p.dimension != 3) t.error(fmt::format("dimension {} is not 2 or 3", p.dimension));
    p.contacts = t.count("the number of contacts", 1000000);
    p.m = read_matrix(t, p.n());
    p.q.resize(p.n());
    for (uint32_t i = 0; i < p.n(); ++i) p.q[i] = t.number(fmt::format("q[{}]", i));
    p.mu.resize(p.contacts);
    for (uint32_t k = 0; k < p.contacts; ++k) {
        p.mu[k] = t.number(fmt::format("mu[{}]", k));
        if (p.mu[k] < 0) t.error(fmt::format("mu[{}] = {} is negative", k, p.mu[k]));
    }
    return p;
}

sdk::LcpData friction_pyramid_problem(const FrictionContactProblem& fc) {
    const uint32_t n = fc.n();
    sdk::LcpData p = sdk::LcpData::standard(n, fc.m, fc.q);
    for (uint32_t k = 0; k < fc.contacts; ++k) {
        const uint32_t normal = k * fc.dimension;
        for (uint32_t d = 1; d < fc.dimension; ++d) {
            p.lo[normal + d] = -fc.mu[k];
            p.hi[normal + d] = fc.mu[k];
            p.findex[normal + d] = static_cast<int32_t>(normal);
        }
    }
    p.detect_symmetry();
    return p;
}

double relative_asymmetry(const sdk::LcpData& p) {
    double largest = 0.0;
    double asymmetry = 0.0;
    for (uint32_t j = 0; j < p.n; ++j) {
        for (uint32_t i = 0; i < p.n; ++i) {
            const double a = p.dense[i + static_cast<size_t>(j) * p.n];
            largest = std::max(largest, std::abs(a));
            asymmetry = std::max(asymmetry, std::abs(a - p.dense[j + static_cast<size_t>(i) * p.n]));
        }
    }
    return largest > 0.0 ? asymmetry / largest : 0.0;
}

void symmetrize(sdk::LcpData& p) {
    for (uint32_t j = 0; j < p.n; ++j) {
        for (uint32_t i = j + 1; i < p.n; ++i) {
            double& lower = p.dense[i + static_cast<size_t>(j) * p.n];
            double& upper = p.dense[j + static_cast<size_t>(i) * p.n];
            const double mean = 0.5 * (lower + upper);
            lower = mean;
            upper = mean;
        }
    }
    p.matrix_properties |= PIVOT_MATRIX_SYMMETRIC;
}

bool siconos_friction_contact_is_nonsymmetric(const std::string& stem) {
    for (const char* prefix : {"Rover", "OneObject", "Capsules"}) {
        if (stem.rfind(prefix, 0) == 0) return true;
    }
    return false;
}

}  // namespace pivot::conformance

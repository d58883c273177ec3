// The pivot-lcp/1 file: problems survive a write/read round trip bit for bit
// (so any step's problem can be replayed exactly), and a bad file is refused
// with the file, the line and the field.
#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "lcp/lcp_file.hpp"

namespace pivot {
namespace {

std::string error_of(const std::string& text) {
    std::istringstream in(text);
    try {
        read_lcp(in, "p.txt");
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(LcpFile, RoundTripIsBitExact) {
    LcpProblem p;
    p.n = 3;
    // Values that need all 17 significant digits, stored column-major.
    p.dense = {0.1, 1.0 / 3.0, -2e-300, 1.0 / 3.0, std::nextafter(2.0, 3.0), 0.0, -2e-300, 0.0, 5.0};
    p.b = {-1.0 / 7.0, 0.0, 1e300};
    p.lo = {0.0, -0.5, -HUGE_VAL};
    p.hi = {HUGE_VAL, 0.5, HUGE_VAL};
    p.findex = {-1, 0, -1};
    std::stringstream file;
    write_lcp(p, file);
    const LcpProblem q = read_lcp(file, "roundtrip");
    ASSERT_EQ(q.n, 3u);
    for (size_t k = 0; k < p.dense.size(); ++k) EXPECT_EQ(q.dense[k], p.dense[k]) << k;
    EXPECT_EQ(q.b, p.b);
    EXPECT_EQ(q.lo, p.lo);
    EXPECT_EQ(q.hi, p.hi);
    EXPECT_EQ(q.findex, p.findex);
    EXPECT_TRUE(q.matrix_properties & PIVOT_MATRIX_SYMMETRIC);
}

TEST(LcpFile, MatrixIsRowMajorInTheFile) {
    std::istringstream in("pivot-lcp/1\n2\n1 2\n3 4\n0 0\n0 0\ninf inf\n-1 -1\n");
    const LcpProblem p = read_lcp(in, "p.txt");
    // A(0,1) = 2 is stored column-major at 0 + 1*2.
    EXPECT_EQ(p.dense[2], 2.0);
    EXPECT_EQ(p.dense[1], 3.0);
    EXPECT_FALSE(p.matrix_properties & PIVOT_MATRIX_SYMMETRIC);
    EXPECT_TRUE(p.is_standard_lcp());
}

// A dumped step's J M^-1 J^T is symmetric to rounding only (A(i,j) and
// A(j,i) are different sums; -3e-17 may face an exact 0): taken as symmetric
// and made exactly so, while a real asymmetry is not.
TEST(LcpFile, SymmetricToRoundingIsSymmetric) {
    std::istringstream near("pivot-lcp/1\n3\n2 0.5000000000000001 0\n0.5 2 -2.7755575615628914e-17\n0 0 1\n"
                            "0 0 0\n0 0 0\ninf inf inf\n-1 -1 -1\n");
    const LcpProblem p = read_lcp(near, "near.txt");
    EXPECT_TRUE(p.matrix_properties & PIVOT_MATRIX_SYMMETRIC);
    EXPECT_EQ(p.dense[1], p.dense[3]);
    EXPECT_EQ(p.dense[5], p.dense[7]);
    std::istringstream far("pivot-lcp/1\n2\n2 0.5001\n0.5 2\n0 0\n0 0\ninf inf\n-1 -1\n");
    EXPECT_FALSE(read_lcp(far, "far.txt").matrix_properties & PIVOT_MATRIX_SYMMETRIC);
}

TEST(LcpFile, CommentsAreIgnored) {
    std::istringstream in("# a problem\npivot-lcp/1\n1 # n\n2\n-1\n0\ninf\n-1\n");
    EXPECT_EQ(read_lcp(in, "p.txt").b[0], -1.0);
}

TEST(LcpFile, ErrorsNameFileLineAndField) {
    EXPECT_EQ(error_of("pivot-lcp/2\n"), "p.txt:1: expected the format tag 'pivot-lcp/1', got 'pivot-lcp/2'");
    EXPECT_EQ(error_of("pivot-lcp/1\n2\n1 x\n"), "p.txt:3: A(0, 1): 'x' is not a finite number");
    EXPECT_EQ(error_of("pivot-lcp/1\n1\n1\nnan\n"), "p.txt:4: b[0]: 'nan' is not a finite number");
    EXPECT_EQ(error_of("pivot-lcp/1\n1\ninf\n"), "p.txt:3: A(0, 0) must be finite, got 'inf'");
    EXPECT_EQ(error_of("pivot-lcp/1\n1\n1\n0\n1\n0\n-1\n"), "p.txt:7: row 0: lo = 1 and hi = 0 are not an interval");
    EXPECT_EQ(error_of("pivot-lcp/1\n2\n1 0\n0 1\n0 0\n0 -1\ninf 1\n-1 1\n"),
              "p.txt:8: findex[1] = 1 must be -1 or another row (0..1)");
    EXPECT_EQ(error_of("pivot-lcp/1\n2\n1 0\n0 1\n0 0\n0 -inf\ninf 1\n-1 0\n"),
              "p.txt:8: row 1: with findex, lo and hi are friction multipliers and must be finite with lo <= 0 <= hi "
              "(got -inf, 1)");
    EXPECT_EQ(error_of("pivot-lcp/1\n1\n1\n0\n0\ninf\n"), "p.txt:6: the file ends before findex[0]");
    EXPECT_EQ(error_of("pivot-lcp/1\n1\n1\n0\n0\ninf\n-1 7\n"), "p.txt:7: unexpected '7' after the last findex");
}

// Storage grows with what the file holds, not with the n it declares: a
// 19-byte file declaring the largest n allowed (10^6: 8 TB dense) ends
// where the file does (it used to end with std::bad_alloc).
TEST(LcpFile, DeclaredSizeAloneAllocatesNothing) {
    EXPECT_EQ(error_of("pivot-lcp/1\n1000000\n"), "p.txt:2: the file ends before A(0, 0)");
    EXPECT_EQ(error_of("pivot-lcp/1\n16000\n1 2 3\n"), "p.txt:3: the file ends before A(0, 3)");
    EXPECT_EQ(error_of("pivot-lcp/1\n1000001\n"), "p.txt:2: n = 1000001 is not a size (0..1000000)");
}

// A friction row's bounds scale with a normal row's impulse: findex must
// name a row without a friction index (no chains, no cycles).
TEST(LcpFile, FrictionIndexMustNameANormalRow) {
    // Rows 1 and 2 name each other (a cycle); row 2 names row 1 (a chain).
    EXPECT_EQ(error_of("pivot-lcp/1\n3\n1 0 0\n0 1 0\n0 0 1\n0 0 0\n0 -1 -1\ninf 1 1\n-1 2 1\n"),
              "p.txt:9: findex[1] = 2 names a row that has a friction index itself (findex[2] = 1); it must name a "
              "normal row (findex -1)");
    EXPECT_EQ(error_of("pivot-lcp/1\n3\n1 0 0\n0 1 0\n0 0 1\n0 0 0\n0 -1 -1\ninf 1 1\n-1 0 1\n"),
              "p.txt:9: findex[2] = 1 names a row that has a friction index itself (findex[1] = 0); it must name a "
              "normal row (findex -1)");
}

TEST(LcpFile, DenseAndSparseFormsAgree) {
    std::istringstream in("pivot-lcp/1\n3\n2 0 1\n0 3 0\n1 0 4\n0 0 0\n0 0 0\ninf inf inf\n-1 -1 -1\n");
    LcpProblem p = read_lcp(in, "p.txt");
    p.make_sparse();
    EXPECT_EQ(p.values.size(), 5u);
    const auto dense = p.dense;
    p.dense.clear();
    p.make_dense();
    EXPECT_EQ(p.dense, dense);
}

}  // namespace
}  // namespace pivot

// The rows of every friction model through the host's checked call: counts,
// unit and orthogonal directions, bounds and friction index, the box's
// sliding-aligned tangent under rotations of the host's frame, the cone's
// coupling block against one built by hand, and finite outputs for
// degenerate contacts. Directions are computed from unit vectors with a few
// products, so 1e-12 covers their rounding; coupling entries are exact.
#include <cmath>
#include <string>

#include "friction_test_support.hpp"

namespace pivot::friction_test {
namespace {

constexpr double kTol = 1e-12;

struct Expect {
    const char* id;
    uint32_t max_rows;
    uint32_t state;
    uint64_t caps;
};

const Expect kModels[] = {
    {"pivot.friction.frictionless", 1, 0, PIVOT_FRICTION_CAP_BOXED},
    {"pivot.friction.box", 3, 0, PIVOT_FRICTION_CAP_BOXED},
    {"pivot.friction.cone", 16, 0, PIVOT_FRICTION_CAP_STANDARD_LCP},
    {"pivot.friction.regularized", 1, 0, PIVOT_FRICTION_CAP_BOXED | PIVOT_FRICTION_CAP_EXPLICIT_FORCE},
    {"pivot.friction.compliant", 0, 2, PIVOT_FRICTION_CAP_EXPLICIT_FORCE | PIVOT_FRICTION_CAP_STATE},
    {"pivot.friction.circular", 3, 0, PIVOT_FRICTION_CAP_BOXED | PIVOT_FRICTION_CAP_PROJECTION},
    {"pivot.friction.stribeck", 3, 0, PIVOT_FRICTION_CAP_BOXED},
    {"pivot.friction.lugre", 3, 6, PIVOT_FRICTION_CAP_BOXED | PIVOT_FRICTION_CAP_STATE},
};

TEST(FrictionDescriptors, DeclaredTablesAndSchemas) {
    for (const Expect& e : kModels) {
        const PluginRecord& p = registry().require(PIVOT_KIND_FRICTION, e.id);
        EXPECT_EQ(p.friction.max_rows_per_contact, e.max_rows) << e.id;
        EXPECT_EQ(p.friction.state_per_contact, e.state) << e.id;
        EXPECT_EQ(p.capabilities, e.caps) << e.id;
        EXPECT_EQ(p.friction.project != nullptr, (e.caps & PIVOT_FRICTION_CAP_PROJECTION) != 0) << e.id;
        for (const ParamSpec& s : p.params) {
            EXPECT_FALSE(s.doc.empty()) << e.id << " " << s.name;
            if (s.type == PIVOT_PARAM_REAL) {
                EXPECT_FALSE(s.unit.empty()) << e.id << " " << s.name;
            }
            EXPECT_EQ(s.flags & PIVOT_PARAM_PER_ITEM, 0u) << e.id << " " << s.name;
        }
    }
}

TEST(FrictionRows, FrictionlessIsTheHostNormalRow) {
    const Model model("pivot.friction.frictionless");
    pivot_contact_point c = plane_contact({0.3, -0.2, -1.0});
    c.normal_row = pivot_row{-0.01, 0.5, 1e-8, 2.0, 0.0, kInf, -1, PIVOT_ROW_POSITION_ERROR};
    const Built b = model.build(c);
    ASSERT_EQ(b.count, 1u);
    EXPECT_EQ(b.rows[0].violation, -0.01);
    EXPECT_EQ(b.rows[0].target_velocity, 0.5);
    EXPECT_EQ(b.rows[0].compliance, 1e-8);
    EXPECT_EQ(b.rows[0].damping, 2.0);
    EXPECT_EQ(b.rows[0].findex, -1);
    EXPECT_NEAR(b.linear(0).z, 1.0, kTol);
    EXPECT_NEAR(length(b.angular(0)), 0.0, kTol);
}

// Box and circular: normal, t1, t2 orthonormal; bounds +-mu with findex 0.
void check_box_rows(const std::string& id) {
    const Model model(id, {{"mu", 0.7}});
    for (double angle : {0.0, 0.4, 2.0}) {
        const Built b = model.build(plane_contact({0, 0, -1}, angle));
        ASSERT_EQ(b.count, 3u) << id;
        for (uint32_t r = 0; r < 3; ++r) {
            EXPECT_NEAR(length(b.linear(r)), 1.0, kTol) << id << " row " << r;
            EXPECT_NEAR(length(b.angular(r)), 0.0, kTol);
            for (uint32_t s = r + 1; s < 3; ++s) EXPECT_NEAR(dot(b.linear(r), b.linear(s)), 0.0, kTol);
        }
        EXPECT_NEAR(dot(cross(b.linear(1), b.linear(2)), b.linear(0)), 1.0, kTol) << "right-handed";
        EXPECT_EQ(b.rows[0].findex, -1);
        EXPECT_EQ(b.rows[0].lower, 0.0);
        EXPECT_EQ(b.rows[0].upper, kInf);
        for (uint32_t r = 1; r < 3; ++r) {
            EXPECT_EQ(b.rows[r].findex, 0);
            EXPECT_EQ(b.rows[r].lower, -0.7);
            EXPECT_EQ(b.rows[r].upper, 0.7);
            EXPECT_EQ(b.rows[r].violation, 0.0);
            EXPECT_EQ(b.rows[r].compliance, 0.0);
        }
        // Not sliding: the host's tangent1.
        EXPECT_NEAR(b.linear(1).x, std::cos(angle), kTol);
        EXPECT_NEAR(b.linear(1).y, std::sin(angle), kTol);
    }
}
TEST(FrictionRows, BoxRowsAreOrthonormalAndBoxed) { check_box_rows("pivot.friction.box"); }
TEST(FrictionRows, CircularRowsAreOrthonormalAndBoxed) { check_box_rows("pivot.friction.circular"); }

// Sliding along phi: whatever the host's tangent frame (0, 30, 45 degrees),
// the first friction row lies along the sliding direction.
TEST(FrictionRows, BoxTangentFollowsTheSlidingDirection) {
    const Model model("pivot.friction.box");
    const double phi = 0.3;
    const V3 slide{std::cos(phi), std::sin(phi), 0};
    for (double deg : {0.0, 30.0, 45.0}) {
        const Built b = model.build(plane_contact(0.2 * slide + V3{0, 0, -0.5}, deg * kPi / 180));
        ASSERT_EQ(b.count, 3u);
        EXPECT_NEAR(b.linear(1).x, slide.x, kTol) << deg;
        EXPECT_NEAR(b.linear(1).y, slide.y, kTol) << deg;
        EXPECT_NEAR(b.linear(1).z, 0.0, kTol) << deg;
        EXPECT_NEAR(dot(b.linear(2), slide), 0.0, kTol) << deg;
    }
    // Below the slip threshold (1e-4 m/s by default) the host's frame is kept.
    const Built slow = model.build(plane_contact(5e-5 * slide, kPi / 4));
    EXPECT_NEAR(slow.linear(1).x, std::cos(kPi / 4), kTol);
}

// The full single-contact LCP block of the cone, built by hand: k = 8,
// mu = 0.4, a block sliding along +x at 2 m/s (so t1 = +x and d_j at 45
// degree steps from +x).
// Stribeck: the box rows with mu = mu_k + (mu_s - mu_k) exp(-(|u_t| / v_s)^delta)
// at the tangential velocity at the step's START (pivot_contact_motion),
// not at the free velocity; t1 still follows the free velocity's slip.
TEST(FrictionRows, StribeckTakesMuAtTheStartVelocity) {
    const Model model("pivot.friction.stribeck",
                      {{"mu_static", 0.6}, {"mu_kinetic", 0.3}, {"stribeck_velocity", 0.1}, {"exponent", 2.0}});
    EXPECT_EQ(model.plugin().friction.build, nullptr);  // build_with_motion only: a 1.8 host
    ASSERT_NE(model.plugin().friction.build_with_motion, nullptr);
    // The free velocity slides along +x at 0.077 m/s (a resting block on an
    // incline at 60 Hz); the start velocity is given separately.
    const pivot_contact_point c = plane_contact({0.077, 0, 0}, 0.7);
    struct Case {
        V3 start;
        double mu;
    };
    const Case cases[] = {
        {{0, 0, 0}, 0.6},                                                   // at rest: mu_s
        {{0, 0, 0.5}, 0.6},                                                 // normal motion is not sliding
        {{0.1, 0, 0}, 0.3 + 0.3 * std::exp(-1.0)},                          // at v_s
        {{0.03, 0.04, 0}, 0.3 + 0.3 * std::exp(-0.25)},                     // |u_t| = 0.05
        {{2.0, 0, 0}, 0.3 + 0.3 * std::exp(-400.0)},                        // far above: mu_k
    };
    for (const Case& k : cases) {
        pivot_contact_motion motion{};
        put(k.start, motion.start_velocity);
        const Built b = model.build(c, 1.0 / 60.0, nullptr, motion);
        ASSERT_EQ(b.count, 3u);
        for (uint32_t r = 1; r < 3; ++r) {
            EXPECT_EQ(b.rows[r].findex, 0);
            EXPECT_NEAR(b.rows[r].upper, k.mu, 1e-15);
            EXPECT_NEAR(b.rows[r].lower, -k.mu, 1e-15);
        }
        EXPECT_NEAR(length(b.linear(1) - V3{1, 0, 0}), 0.0, 1e-15);  // t1 along the free velocity's slip
    }
    // Exponent 1: exp(-|u|/v_s).
    const Model exponential("pivot.friction.stribeck",
                            {{"mu_static", 0.5}, {"mu_kinetic", 0.2}, {"stribeck_velocity", 0.2}, {"exponent", 1.0}});
    pivot_contact_motion motion{};
    motion.start_velocity[1] = 0.4;
    EXPECT_NEAR(exponential.build(c, 0.01, nullptr, motion).rows[1].upper, 0.2 + 0.3 * std::exp(-2.0), 1e-15);
}

TEST(FrictionRows, ConeRowsAndCouplingMatchTheHandBuiltBlock) {
    const uint32_t k = 8;
    const double mu = 0.4;
    const Model model("pivot.friction.cone", {{"mu", mu}, {"facets", k}});
    const Built b = model.build(plane_contact({2.0, 0.0, -0.1}, 0.7));
    ASSERT_EQ(b.count, k + 2);
    const uint32_t m = b.max_rows, a = k + 1;
    ASSERT_EQ(m, 16u);
    // Rows: all standard-LCP rows.
    for (uint32_t r = 0; r < b.count; ++r) {
        EXPECT_EQ(b.rows[r].lower, 0.0) << r;
        EXPECT_EQ(b.rows[r].upper, kInf) << r;
        EXPECT_EQ(b.rows[r].findex, -1) << r;
        EXPECT_NEAR(length(b.angular(r)), 0.0, kTol) << r;
    }
    // Directions: normal, d_j = (cos 2 pi j/k, sin 2 pi j/k, 0), zero.
    EXPECT_NEAR(b.linear(0).z, 1.0, kTol);
    for (uint32_t j = 0; j < k; ++j) {
        const double t = 2 * kPi * j / k;
        EXPECT_NEAR(b.linear(1 + j).x, std::cos(t), kTol) << j;
        EXPECT_NEAR(b.linear(1 + j).y, std::sin(t), kTol) << j;
        EXPECT_NEAR(b.linear(1 + j).z, 0.0, kTol) << j;
    }
    EXPECT_EQ(length(b.linear(a)), 0.0);
    // The hand-built coupling block (documented in cone_friction.cpp):
    // E (friction rows x alpha column) = 1, alpha row = [mu, -1 ... -1, 0].
    std::vector<double> expected(static_cast<size_t>(m) * m, 0.0);
    auto at = [&](uint32_t i, uint32_t j) -> double& { return expected[i + static_cast<size_t>(j) * m]; };
    for (uint32_t r = 1; r <= k; ++r) {
        at(r, a) = 1.0;
        at(a, r) = -1.0;
    }
    at(a, 0) = mu;
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < m; ++j) EXPECT_EQ(b.c(i, j), at(i, j)) << i << "," << j;
}

TEST(FrictionRows, ConeFacetCountFollowsTheParameter) {
    for (int k : {4, 6, 14}) {
        const Model model("pivot.friction.cone", {{"facets", k}});
        const Built b = model.build(plane_contact({0, 0, -1}));
        EXPECT_EQ(b.count, static_cast<uint32_t>(k) + 2);
        EXPECT_EQ(b.c(static_cast<uint32_t>(k) + 1, 0), 0.5);  // default mu
    }
}

// Degenerate but finite input: the checked call verifies every output is
// finite and every row valid; directions must still be unit where nonzero.
TEST(FrictionRows, DegenerateContactsGiveFiniteOutputs) {
    std::vector<pivot_contact_point> contacts;
    contacts.push_back(plane_contact());  // zero velocity
    pivot_contact_point zero_normal = plane_contact({1, 2, 3});
    put({0, 0, 0}, zero_normal.normal);
    contacts.push_back(zero_normal);
    pivot_contact_point parallel = plane_contact({0, 0, -2});
    put({0, 0, 1}, parallel.tangent1);  // tangent parallel to the normal
    put({0, 0, 0}, parallel.tangent2);
    contacts.push_back(parallel);
    pivot_contact_point huge = plane_contact({1e150, -1e150, 1e150}, 0.0, 1e-3);
    huge.previous_impulses[0] = 1e100;
    contacts.push_back(huge);
    pivot_contact_point negative = plane_contact({1e-300, 0, 0}, 0.0, 0.01);
    negative.previous_impulses[0] = -5.0;  // a (bad) negative normal impulse
    contacts.push_back(negative);
    for (const Expect& e : kModels) {
        const Model model(e.id);
        for (size_t i = 0; i < contacts.size(); ++i) {
            std::vector<double> state;
            const Built b = model.build(contacts[i], 1e-3, &state);
            for (uint32_t r = 0; r < b.count; ++r) {
                const double l = length(b.linear(r));
                EXPECT_TRUE(l == 0.0 || std::fabs(l - 1.0) < 1e-12) << e.id << " contact " << i << " row " << r;
            }
        }
    }
}

}  // namespace
}  // namespace pivot::friction_test

// pivot.element.ancf_cable through the ABI and the host's checked calls:
// shape functions, Gauss rules, strain rows and their Jacobians (finite
// differences at straight, stretched and curved configurations), mass and
// gravity against quadrature, energies, material frames, rigid-motion
// invariance and the curvature of a circular arc.
//
// Everything the plugin computes is checked against what the test computes
// on its own: its own shape functions S(x) (Eq. 2.26), composite Simpson
// quadrature, the tabulated 5-point Gauss-Legendre rule, and finite
// differences of positions read back through material_frames.
//
// Measured errors are printed as "[ measured ] ..." lines.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "plugin_host/plugin_registry.hpp"

namespace pivot {
namespace {

using Q = std::array<double, 12>;
using V3 = std::array<double, 3>;

constexpr double kRadius = 0.05, kDensity = 1000.0, kYoungs = 1e7, kTau = 0.01, kLength = 0.8;
constexpr double kPi = 3.14159265358979323846;
const double kArea = kPi * kRadius * kRadius;
const double kInertia = 0.25 * kPi * kRadius * kRadius * kRadius * kRadius;

V3 cross(const V3& a, const V3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const V3& a, const V3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double norm(const V3& a) { return std::sqrt(dot(a, a)); }

// The test's own shape functions (Eq. 2.26), xi = x / L.
std::array<double, 4> shape(double x, double L) {
    const double xi = x / L;
    return {1 - 3 * xi * xi + 2 * xi * xi * xi, L * (xi - 2 * xi * xi + xi * xi * xi), 3 * xi * xi - 2 * xi * xi * xi,
            L * (-xi * xi + xi * xi * xi)};
}
V3 position(const Q& q, double x, double L) {
    const auto s = shape(x, L);
    V3 r{0, 0, 0};
    for (int a = 0; a < 4; ++a)
        for (int i = 0; i < 3; ++i) r[i] += s[a] * q[3 * a + i];
    return r;
}

// A straight element from p along unit t with gradient scale g (1: stress-free).
Q straight(V3 p, V3 t, double L, double g = 1.0) {
    return {p[0], p[1], p[2], g * t[0], g * t[1], g * t[2], p[0] + g * L * t[0], p[1] + g * L * t[1],
            p[2] + g * L * t[2], g * t[0], g * t[1], g * t[2]};
}
const V3 kTilted = [] {
    const double n = std::sqrt(0.36 + 0.25 + 0.04);
    return V3{0.6 / n, -0.5 / n, 0.2 / n};
}();
// A curved, twisted (non-planar), stretched element.
const Q kCurved = {0.1, -0.2, 0.3, 0.9, 0.3, -0.2, 0.8, 0.05, 0.4, 0.8, -0.2, 0.4};

// Composite Simpson on [0, L] with n (even) intervals: exact for cubics,
// error L h^4 max|f''''| / 180 otherwise.
template <class F>
double simpson(F f, double L, int n = 2000) {
    const double h = L / n;
    double sum = f(0.0) + f(L);
    for (int k = 1; k < n; ++k) sum += (k % 2 ? 4.0 : 2.0) * f(k * h);
    return sum * h / 3.0;
}

class AncfCable : public ::testing::Test {
protected:
    void SetUp() override {
        report = registry.load(PIVOT_FIRST_PARTY_PLUGIN_DIR);
        plugin = registry.find("pivot.element.ancf_cable");
        ASSERT_NE(plugin, nullptr);
    }
    PluginInstance make(int gauss = 5, double damping = kTau) const {
        return PluginInstance(*plugin, pack_params(*plugin, ParamScope::instance,
                                                   {{"radius", kRadius},
                                                    {"density", kDensity},
                                                    {"youngs_modulus", kYoungs},
                                                    {"gauss_points", gauss},
                                                    {"damping", damping}},
                                                   "test"));
    }
    std::vector<double> items(double L) const {
        return pack_params(*plugin, ParamScope::item, {{"length", L}}, "test");
    }
    uint32_t max_rows(const PluginInstance& inst) const {
        return plugin->element.max_internal_rows(inst.handle());
    }
    struct Rows {
        std::vector<pivot_row> rows;
        std::vector<double> jac;  // count x 12
        uint32_t count = 0;
    };
    // Internal rows of one element at q, reference `ref` (straight).
    Rows rows_at(const PluginInstance& inst, const Q& q, double L = kLength, const Q* ref = nullptr) const {
        const Q reference = ref != nullptr ? *ref : straight({0, 0, 0}, {1, 0, 0}, L);
        const auto item = items(L);
        const Q v{};
        pivot_element_batch batch{1, 1, item.data(), q.data(), v.data(), reference.data()};
        pivot_step_info step{sizeof(pivot_step_info), 0, 0.01, 0.0, {0, 0, -9.81}};
        Rows out;
        const uint32_t m = max_rows(inst);
        out.rows.resize(m);
        out.jac.resize(12 * m);
        const CallResult r = checked_internal_rows(inst, batch, step, m, unguarded(out.rows.data()),
                                                   unguarded(out.jac.data()), unguarded(&out.count));
        EXPECT_TRUE(r.ok()) << r.message;
        return out;
    }
    std::array<double, 3> energies(const PluginInstance& inst, const Q& q, const Q& v, V3 g = {0, 0, -9.81},
                                   double L = kLength) const {
        const Q reference = straight({0, 0, 0}, {1, 0, 0}, L);
        const auto item = items(L);
        pivot_element_batch batch{1, 1, item.data(), q.data(), v.data(), reference.data()};
        pivot_step_info step{sizeof(pivot_step_info), 0, 0.01, 0.0, {g[0], g[1], g[2]}};
        std::array<double, 3> e{};
        const CallResult r = checked_energy(inst, batch, step, unguarded(e.data()));
        EXPECT_TRUE(r.ok()) << r.message;
        return e;
    }
    struct Frame {
        std::array<double, 7> pose{};
        std::array<double, 6> twist{};
        std::array<double, 72> jac{};  // 6 x 12 column-major
        V3 x_axis() const {  // first column of the rotation of the quaternion
            const double w = pose[3], x = pose[4], y = pose[5], z = pose[6];
            return {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)};
        }
    };
    Frame frame_at(const PluginInstance& inst, const Q& q, const Q& v, double s, const Q& ref,
                   double L = kLength) const {
        const auto item = items(L);
        pivot_element_batch batch{1, 1, item.data(), q.data(), v.data(), ref.data()};
        const pivot_material_point point{0, 0, {s, 0.0, 0.0}};
        Frame f;
        const CallResult r = checked_material_frames(inst, batch, &point, 1, unguarded(f.pose.data()),
                                                     unguarded(f.twist.data()), unguarded(f.jac.data()));
        EXPECT_TRUE(r.ok()) << r.message;
        return f;
    }

    // An instance with the given geometric_stiffness scale (other parameters as make()).
    PluginInstance make_geometric(double geometric, int gauss = 5) const {
        return PluginInstance(*plugin, pack_params(*plugin, ParamScope::instance,
                                                   {{"radius", kRadius},
                                                    {"density", kDensity},
                                                    {"youngs_modulus", kYoungs},
                                                    {"gauss_points", gauss},
                                                    {"damping", kTau},
                                                    {"geometric_stiffness", geometric}},
                                                   "test"));
    }
    // Internal rows at q with velocity v and timestep h (the axial rows'
    // violation then carries the predicted (h^2/2) |r_x-dot|^2).
    Rows rows_moving(const PluginInstance& inst, const Q& q, const Q& v, double h, double L = kLength) const {
        const Q reference = straight({0, 0, 0}, {1, 0, 0}, L);
        const auto item = items(L);
        pivot_element_batch batch{1, 1, item.data(), q.data(), v.data(), reference.data()};
        pivot_step_info step{sizeof(pivot_step_info), 0, h, 0.0, {0, 0, -9.81}};
        Rows out;
        const uint32_t m = max_rows(inst);
        out.rows.resize(m);
        out.jac.resize(12 * m);
        const CallResult r = checked_internal_rows(inst, batch, step, m, unguarded(out.rows.data()),
                                                   unguarded(out.jac.data()), unguarded(&out.count));
        EXPECT_TRUE(r.ok()) << r.message;
        return out;
    }
    // internal_stiffness at q (12 x 12, column-major).
    std::array<double, 144> stiffness_at(const PluginInstance& inst, const Q& q, double L = kLength,
                                         double h = 0.01) const {
        const Q reference = straight({0, 0, 0}, {1, 0, 0}, L);
        const auto item = items(L);
        const Q v{};
        pivot_element_batch batch{1, 1, item.data(), q.data(), v.data(), reference.data()};
        pivot_step_info step{sizeof(pivot_step_info), 0, h, 0.0, {0, 0, -9.81}};
        std::array<double, 144> k{};
        k.fill(-1.0);  // the plugin must write every entry
        const CallResult r = checked_internal_stiffness(inst, batch, step, unguarded(k.data()));
        EXPECT_TRUE(r.ok()) << r.message;
        return k;
    }

    LoadReport report;
    PluginRegistry registry;
    const PluginRecord* plugin = nullptr;
};

TEST_F(AncfCable, DescriptorIsValidAndDeclaresTheCable) {
    // The folder loads whole (a library with one invalid descriptor is
    // refused), and the plugin is an element with curve geometry, a 'radius'
    // instance parameter and a per-item 'length'.
    for (const std::string& p : report.problems) EXPECT_EQ(p.find("ancf"), std::string::npos) << p;
    EXPECT_EQ(plugin->kind, PIVOT_KIND_ELEMENT);
    EXPECT_TRUE(plugin->has(PIVOT_ELEMENT_CAP_CONSTANT_MASS));
    EXPECT_TRUE(plugin->has(PIVOT_ELEMENT_CAP_INTERNAL_ROWS));
    EXPECT_EQ(plugin->element.geometry, static_cast<uint32_t>(PIVOT_ELEMENT_GEOMETRY_CURVE));
    EXPECT_EQ(plugin->element.nodes_per_element, 2u);
    EXPECT_EQ(plugin->element.coords_per_node, 6u);
    EXPECT_EQ(plugin->element.velocities_per_node, 6u);
    bool radius = false, length = false;
    for (const ParamSpec& p : plugin->params) {
        radius |= p.name == "radius" && !p.per_item();
        length |= p.name == "length" && p.per_item();
    }
    EXPECT_TRUE(radius);
    EXPECT_TRUE(length);
    for (int n : {2, 5, 10}) EXPECT_EQ(max_rows(make(n)), 4u * n);
    // gauss_points outside 2..10 is refused by the host's schema check.
    EXPECT_ANY_THROW(make(1));
    EXPECT_ANY_THROW(make(11));
}

TEST_F(AncfCable, SetParamsAndCloneKeepTheConfiguration) {
    PluginInstance inst = make(5);
    inst.set_params(pack_params(*plugin, ParamScope::instance, {{"gauss_points", 7}}, "test"));
    EXPECT_EQ(max_rows(inst), 28u);
    PluginInstance copy = inst.clone();
    EXPECT_EQ(max_rows(copy), 28u);
}

TEST_F(AncfCable, PositionsAreTheHermiteInterpolation) {
    // Poses from material_frames at s = x / L equal the test's own S(x) q,
    // and the nodes are interpolated: r(0) = r1, r(L) = r2 (to rounding).
    PluginInstance inst = make();
    const Q ref = straight({0, 0, 0}, {1, 0, 0}, kLength);
    const Q v{};
    double worst = 0.0;
    for (double s : {0.0, 0.13, 0.5, 0.77, 1.0}) {
        const Frame f = frame_at(inst, kCurved, v, s, ref);
        const V3 r = position(kCurved, s * kLength, kLength);
        for (int i = 0; i < 3; ++i) worst = std::max(worst, std::abs(f.pose[i] - r[i]));
    }
    std::printf("[ measured ] position vs S(x) q: %.3g\n", worst);
    EXPECT_LT(worst, 1e-15 * 10);
    const Frame end = frame_at(inst, kCurved, v, 1.0, ref);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(end.pose[i], kCurved[6 + i], 1e-15);
}

TEST_F(AncfCable, RowsAreTheStrainsAtTheGaussPoints) {
    // 5-point Gauss-Legendre (tabulated) on [0, L]: x_i = L (1 + z_i) / 2,
    // w_i = L w_i^[-1,1] / 2. At each point the plugin's compliances are
    // 1/(E A w_i) and 1/(E I w_i), and its violations are the strains of the
    // test's own r(x): r_x by the 4-point stencil and r_xx by the 3-point
    // one, both exact for cubics, so only rounding remains:
    // ~1e-16 |r| / h resp. / h^2 with h = 0.01 L: ~1e-13 and ~1e-11.
    PluginInstance inst = make(5);
    const double z[5] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831, 0.9061798459386640};
    const double w[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665,
                         0.2369268850561891};
    const Rows out = rows_at(inst, kCurved);
    ASSERT_EQ(out.count, 20u);
    const double h = 0.01 * kLength;
    double worst_axial = 0.0, worst_kappa = 0.0, worst_c = 0.0;
    for (int i = 0; i < 5; ++i) {
        const double x = 0.5 * kLength * (1 + z[i]), wi = 0.5 * kLength * w[i];
        const V3 m2 = position(kCurved, x - 2 * h, kLength), m1 = position(kCurved, x - h, kLength),
                 p0 = position(kCurved, x, kLength), p1 = position(kCurved, x + h, kLength),
                 p2 = position(kCurved, x + 2 * h, kLength);
        V3 rx{}, rxx{};
        for (int k = 0; k < 3; ++k) {
            rx[k] = (m2[k] - 8 * m1[k] + 8 * p1[k] - p2[k]) / (12 * h);
            rxx[k] = (m1[k] - 2 * p0[k] + p1[k]) / (h * h);
        }
        const double n = norm(rx);
        const V3 c = cross(rx, rxx);
        worst_axial = std::max(worst_axial, std::abs(out.rows[4 * i].violation - 0.5 * (dot(rx, rx) - 1)));
        for (int k = 0; k < 3; ++k)
            worst_kappa = std::max(worst_kappa, std::abs(out.rows[4 * i + 1 + k].violation - c[k] / (n * n * n)));
        worst_c = std::max(worst_c, std::abs(out.rows[4 * i].compliance * kYoungs * kArea * wi - 1.0));
        for (int k = 1; k < 4; ++k)
            worst_c = std::max(worst_c, std::abs(out.rows[4 * i + k].compliance * kYoungs * kInertia * wi - 1.0));
    }
    std::printf("[ measured ] strain vs FD of S(x) q: axial %.3g, curvature %.3g (1/m); compliance rel. %.3g\n",
                worst_axial, worst_kappa, worst_c);
    EXPECT_LT(worst_axial, 1e-11);
    EXPECT_LT(worst_kappa, 1e-8);
    EXPECT_LT(worst_c, 1e-13);  // the tabulated rule has 16 digits
}

TEST_F(AncfCable, GaussRulesIntegratePolynomialsExactly) {
    // The plugin's rule for every n in 2..10, read back through its rows: the
    // weights from the axial compliance, w_i = 1/(E A c_i), the points from
    // the axial strain of r(x) = (x + x^2 / (2L)) e_x (exactly representable),
    // phi = ((1 + xi)^2 - 1)/2, so xi = sqrt(1 + 2 phi) - 1. Then
    // sum_i w_i xi_i^k = L / (k + 1) for k <= 2n - 1, to rounding (~1e-15).
    const double L = kLength;
    const Q q = {0, 0, 0, 1, 0, 0, 1.5 * L, 0, 0, 2, 0, 0};
    double worst = 0.0;
    for (int n = 2; n <= 10; ++n) {
        PluginInstance inst = make(n);
        const Rows out = rows_at(inst, q, L);
        ASSERT_EQ(out.count, 4u * n);
        for (int k = 0; k <= 2 * n - 1; ++k) {
            double sum = 0.0;
            for (int i = 0; i < n; ++i) {
                const double wi = 1.0 / (kYoungs * kArea * out.rows[4 * i].compliance);
                const double xi = std::sqrt(1.0 + 2.0 * out.rows[4 * i].violation) - 1.0;
                sum += wi * std::pow(xi, k);
            }
            worst = std::max(worst, std::abs(sum - L / (k + 1)) / L);
        }
    }
    std::printf("[ measured ] Gauss rules n = 2..10, moments up to 2n-1: rel. error %.3g\n", worst);
    EXPECT_LT(worst, 1e-13);
}

// Max |J - FD| over all rows and columns at q; central differences with step
// d = 1e-6: truncation d^2 |phi'''| / 6 ~ 1e-12 * O(10), rounding
// 1e-16 |phi| / d ~ 1e-10 * O(1), so ~1e-9 is expected and 1e-7 is asserted.
double row_jacobian_error(const std::function<void(const Q&, std::vector<pivot_row>&, std::vector<double>&)>& eval,
                          const Q& q, double* jmax) {
    std::vector<pivot_row> rows, rp, rm;
    std::vector<double> jac, unused;
    eval(q, rows, jac);
    const double d = 1e-6;
    double worst = 0.0;
    *jmax = 0.0;
    for (int c = 0; c < 12; ++c) {
        Q qp = q, qm = q;
        qp[c] += d;
        qm[c] -= d;
        eval(qp, rp, unused);
        eval(qm, rm, unused);
        for (size_t k = 0; k < rows.size(); ++k) {
            const double fd = (rp[k].violation - rm[k].violation) / (2 * d);
            worst = std::max(worst, std::abs(fd - jac[12 * k + c]));
            *jmax = std::max(*jmax, std::abs(jac[12 * k + c]));
        }
    }
    return worst;
}

TEST_F(AncfCable, StrainJacobiansMatchFiniteDifferences) {
    PluginInstance inst = make(5);
    auto eval = [&](const Q& q, std::vector<pivot_row>& rows, std::vector<double>& jac) {
        Rows out = rows_at(inst, q);
        rows.assign(out.rows.begin(), out.rows.begin() + out.count);
        jac = out.jac;
    };
    struct Case {
        const char* name;
        Q q;
    };
    const Case cases[] = {
        {"straight, stress-free, tilted", straight({0.3, -0.1, 2.0}, kTilted, kLength)},
        {"straight, stretched 3%", straight({0.3, -0.1, 2.0}, kTilted, kLength, 1.03)},
        {"curved, non-planar", kCurved},
    };
    for (const Case& c : cases) {
        double jmax = 0.0;
        const double err = row_jacobian_error(eval, c.q, &jmax);
        std::printf("[ measured ] strain Jacobian FD error (%s): %.3g (max |J| %.3g)\n", c.name, err, jmax);
        EXPECT_LT(err, 1e-7) << c.name;
    }
    // At the straight stress-free configuration every violation is zero (to
    // rounding of S_xx q: ~10 ulp of |q| / L^2) and the curvature rows'
    // Jacobian does not vanish (E10: the vector curvature is smooth; the
    // d|kappa|/dq of Eq. 5.5 would be 0/0 there).
    const Rows out = rows_at(inst, cases[0].q);
    for (uint32_t k = 0; k < out.count; ++k) {
        EXPECT_LT(std::abs(out.rows[k].violation), 1e-14) << k;
    }
    double bending = 0.0;
    for (uint32_t k = 0; k < out.count; ++k)
        if (k % 4 != 0)
            for (int c = 0; c < 12; ++c) bending += out.jac[12 * k + c] * out.jac[12 * k + c];
    EXPECT_GT(std::sqrt(bending), 1.0);
}

TEST_F(AncfCable, CurvatureJacobianRowsSeparatelyAtStraightAndCurved) {
    // The same FD check reported per row kind (axial, kappa_x, kappa_y,
    // kappa_z), so that a wrong sign in one component cannot hide behind
    // another's larger error.
    PluginInstance inst = make(5);
    const Q straight_q = straight({0, 0, 0}, {1, 0, 0}, kLength);
    for (const Q* qq : {&straight_q, &kCurved}) {
        const Q& q = *qq;
        const Rows base = rows_at(inst, q);
        const double d = 1e-6;
        double worst[4] = {0, 0, 0, 0};
        for (int c = 0; c < 12; ++c) {
            Q qp = q, qm = q;
            qp[c] += d;
            qm[c] -= d;
            const Rows p = rows_at(inst, qp), m = rows_at(inst, qm);
            for (uint32_t k = 0; k < base.count; ++k) {
                const double fd = (p.rows[k].violation - m.rows[k].violation) / (2 * d);
                worst[k % 4] = std::max(worst[k % 4], std::abs(fd - base.jac[12 * k + c]));
            }
        }
        std::printf("[ measured ] per-row FD error %s: axial %.3g, kx %.3g, ky %.3g, kz %.3g\n",
                    qq == &kCurved ? "curved" : "straight", worst[0], worst[1], worst[2], worst[3]);
        for (double w : worst) EXPECT_LT(w, 1e-7);
    }
}

TEST_F(AncfCable, RowMetadataDampingAndBounds) {
    // Kelvin-Voigt: damping d = tau / c, so the host's g = h + d c = h + tau.
    // Equality rows, no friction index, stabilized, not joint position errors.
    PluginInstance inst = make(5, kTau);
    const Rows out = rows_at(inst, kCurved);
    for (uint32_t k = 0; k < out.count; ++k) {
        const pivot_row& r = out.rows[k];
        EXPECT_NEAR(r.damping * r.compliance, kTau, 1e-16) << k;
        EXPECT_EQ(r.lower, -HUGE_VAL);
        EXPECT_EQ(r.upper, HUGE_VAL);
        EXPECT_EQ(r.findex, -1);
        EXPECT_EQ(r.flags, 0u);
        EXPECT_EQ(r.target_velocity, 0.0);
    }
    PluginInstance undamped = make(5, 0.0);
    for (const pivot_row& r : rows_at(undamped, kCurved).rows) EXPECT_EQ(r.damping, 0.0);
}

TEST_F(AncfCable, RigidMotionsOfAStraightElementAreStrainFree) {
    // Translated and rotated copies of the stress-free straight element: every
    // violation is zero to rounding. For the curved element, a rotation R
    // leaves the axial strains unchanged and rotates the curvature vectors.
    PluginInstance inst = make(7);
    const double a = 1.1;
    const V3 axis = {0.3 / 0.9, 0.6 / 0.9, 0.6 / 0.9};  // unit
    auto rotate = [&](const V3& u) {  // Rodrigues
        const V3 c = cross(axis, u);
        const double d = dot(axis, u);
        V3 r{};
        for (int i = 0; i < 3; ++i) r[i] = u[i] * std::cos(a) + c[i] * std::sin(a) + axis[i] * d * (1 - std::cos(a));
        return r;
    };
    auto move = [&](const Q& q, const V3& shift) {
        Q out{};
        for (int b = 0; b < 4; ++b) {
            const V3 u = rotate({q[3 * b], q[3 * b + 1], q[3 * b + 2]});
            for (int i = 0; i < 3; ++i) out[3 * b + i] = u[i] + (b % 2 == 0 ? shift[i] : 0.0);
        }
        return out;
    };
    double worst = 0.0;
    for (const Q& q : {straight({0, 0, 0}, {1, 0, 0}, kLength), move(straight({0, 0, 0}, {1, 0, 0}, kLength),
                                                                         {5.0, -3.0, 2.0}),
                       straight({1, 2, 3}, kTilted, kLength)}) {
        for (const pivot_row& r : rows_at(inst, q).rows) worst = std::max(worst, std::abs(r.violation));
    }
    std::printf("[ measured ] violation under rigid motion of a straight element: %.3g\n", worst);
    EXPECT_LT(worst, 1e-14);
    const Rows base = rows_at(inst, kCurved), moved = rows_at(inst, move(kCurved, {0.4, 0.5, -0.6}));
    double worst_curved = 0.0;
    for (uint32_t i = 0; i < base.count / 4; ++i) {
        worst_curved = std::max(worst_curved, std::abs(base.rows[4 * i].violation - moved.rows[4 * i].violation));
        const V3 k = rotate({base.rows[4 * i + 1].violation, base.rows[4 * i + 2].violation,
                             base.rows[4 * i + 3].violation});
        for (int c = 0; c < 3; ++c)
            worst_curved = std::max(worst_curved, std::abs(k[c] - moved.rows[4 * i + 1 + c].violation));
    }
    std::printf("[ measured ] objectivity of the curved element's strains: %.3g\n", worst_curved);
    EXPECT_LT(worst_curved, 1e-13);
}

TEST_F(AncfCable, ElasticEnergyGradientIsTheRowForce) {
    // dW/dq = sum_rows J^T phi / c (the elastic force is -J^T C^-1 phi):
    // FD of energy()'s elastic part with step d = 1e-6 (relative error
    // ~ d^2 + 1e-16 / d ~ 1e-10 of |W|/|q|), and W = 1/2 sum phi^2 / c.
    PluginInstance inst = make(5);
    const Q v{};
    const Rows out = rows_at(inst, kCurved);
    double w_rows = 0.0;
    Q force{};
    for (uint32_t k = 0; k < out.count; ++k) {
        const pivot_row& r = out.rows[k];
        w_rows += 0.5 * r.violation * r.violation / r.compliance;
        for (int c = 0; c < 12; ++c) force[c] += out.jac[12 * k + c] * r.violation / r.compliance;
    }
    const double w = energies(inst, kCurved, v)[2];
    EXPECT_NEAR(w, w_rows, 1e-13 * w);
    const double d = 1e-6;
    double worst = 0.0, fmax = 0.0;
    for (int c = 0; c < 12; ++c) {
        Q qp = kCurved, qm = kCurved;
        qp[c] += d;
        qm[c] -= d;
        const double fd = (energies(inst, qp, v)[2] - energies(inst, qm, v)[2]) / (2 * d);
        worst = std::max(worst, std::abs(fd - force[c]));
        fmax = std::max(fmax, std::abs(force[c]));
    }
    std::printf("[ measured ] elastic energy gradient vs J^T C^-1 phi: %.3g relative (max |f| %.3g N)\n",
                worst / fmax, fmax);
    EXPECT_LT(worst / fmax, 1e-7);
}

TEST_F(AncfCable, MassMatrixIsTheIntegralOfRhoASTransposeS) {
    // M = int rho A S^T S dx, by composite Simpson with the test's own S
    // (integrand degree 6: error ~ L h^4 |f''''| / 180 ~ 1e-16 relative);
    // constant (the same at another q), symmetric positive definite.
    PluginInstance inst = make();
    const double L = kLength;
    const auto item = items(L);
    const Q ref = straight({0, 0, 0}, {1, 0, 0}, L);
    const Q v{};
    std::array<double, 144> m{}, m2{};
    pivot_element_batch batch{1, 1, item.data(), ref.data(), v.data(), ref.data()};
    ASSERT_TRUE(checked_mass_matrix(inst, batch, unguarded(m.data())).ok());
    batch.q = kCurved.data();
    ASSERT_TRUE(checked_mass_matrix(inst, batch, unguarded(m2.data())).ok());
    EXPECT_EQ(m, m2);
    const double rho_a = kDensity * kArea;
    double worst = 0.0, mmax = 0.0;
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j) {
            const double expected = i % 3 != j % 3 ? 0.0 : simpson([&](double x) {
                const auto s = shape(x, L);
                return rho_a * s[i / 3] * s[j / 3];
            }, L);
            worst = std::max(worst, std::abs(m[i + 12 * j] - expected));
            mmax = std::max(mmax, std::abs(expected));
        }
    std::printf("[ measured ] mass matrix vs quadrature: %.3g relative\n", worst / mmax);
    EXPECT_LT(worst / mmax, 1e-13);
    // Total mass: a translation u is q-dot = [u, 0, u, 0] (S1 + S3 = 1).
    const V3 u = {0.3, -1.2, 0.7};
    Q vt{};
    for (int i = 0; i < 3; ++i) vt[i] = vt[6 + i] = u[i];
    double vmv = 0.0;
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j) vmv += vt[i] * m[i + 12 * j] * vt[j];
    EXPECT_NEAR(vmv / dot(u, u), rho_a * L, 1e-13 * rho_a * L);
    EXPECT_NEAR(energies(inst, ref, vt)[0], 0.5 * rho_a * L * dot(u, u), 1e-13 * rho_a * L);
    // Positive definite: a Cholesky factorization succeeds.
    std::array<double, 144> c = m;
    for (int k = 0; k < 12; ++k) {
        ASSERT_GT(c[k + 12 * k], 0.0);
        const double p = std::sqrt(c[k + 12 * k]);
        for (int i = k; i < 12; ++i) c[i + 12 * k] /= p;
        for (int j = k + 1; j < 12; ++j)
            for (int i = j; i < 12; ++i) c[i + 12 * j] -= c[i + 12 * k] * c[j + 12 * k];
    }
    // Kinetic energy of a general velocity is 1/2 v^T M v.
    double kin = 0.0;
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j) kin += 0.5 * kCurved[i] * m[i + 12 * j] * kCurved[j];
    EXPECT_NEAR(energies(inst, ref, kCurved)[0], kin, 1e-13 * kin);
}

TEST_F(AncfCable, GravityForceAndPotentialAreTheIntegrals) {
    // Q_g = int rho A S^T g dx and V = -int rho A g.r dx, by Simpson with the
    // test's own S (cubic integrands: Simpson is exact, rounding only).
    PluginInstance inst = make();
    const double L = kLength;
    const V3 g = {0.5, -1.0, -9.81};
    const auto item = items(L);
    const Q ref = straight({0, 0, 0}, {1, 0, 0}, L);
    const Q v{};
    pivot_element_batch batch{1, 1, item.data(), kCurved.data(), v.data(), ref.data()};
    pivot_step_info step{sizeof(pivot_step_info), 0, 0.01, 0.0, {g[0], g[1], g[2]}};
    Q f{};
    ASSERT_TRUE(checked_generalized_forces(inst, batch, step, unguarded(f.data())).ok());
    const double rho_a = kDensity * kArea;
    double worst = 0.0;
    for (int i = 0; i < 12; ++i) {
        const double expected = simpson([&](double x) { return rho_a * shape(x, L)[i / 3] * g[i % 3]; }, L, 200);
        worst = std::max(worst, std::abs(f[i] - expected));
    }
    std::printf("[ measured ] gravity force vs quadrature: %.3g N\n", worst);
    EXPECT_LT(worst, 1e-12 * rho_a * L * 10);
    // Sum of the position components: the weight rho A L g.
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(f[i] + f[6 + i], rho_a * L * g[i], 1e-12 * rho_a * L * 10);
    const double potential =
        -simpson([&](double x) { return rho_a * dot(g, position(kCurved, x, L)); }, L, 200);
    const double e = energies(inst, kCurved, v, g)[1];
    std::printf("[ measured ] gravitational energy vs quadrature: %.3g J\n", std::abs(e - potential));
    EXPECT_NEAR(e, potential, 1e-12 * std::abs(potential));
}

TEST_F(AncfCable, MaterialFrameJacobianMatchesFiniteDifferences) {
    // For each coordinate q_c (v = q-dot): the position's derivative is the
    // linear Jacobian column, and the tangent's derivative is omega_c x t with
    // omega_c the angular column, which has no component along t. Central
    // differences with d = 1e-6: error ~ d^2 + 1e-16 / d ~ 1e-10.
    PluginInstance inst = make();
    const Q ref = straight({0, 0, 0}, {1, 0, 0}, kLength);
    const Q v = {0.3, -0.2, 0.5, 0.1, 0.4, -0.3, -0.6, 0.2, 0.1, 0.2, -0.5, 0.3};
    const double d = 1e-6;
    const Q straight_q = straight({0.2, 0.1, 0}, kTilted, kLength);
    for (const Q* qq : {&straight_q, &kCurved}) {
        const Q& q = *qq;
        double worst_lin = 0.0, worst_ang = 0.0, worst_spin = 0.0, worst_twist = 0.0, worst_axis = 0.0;
        for (double s : {0.0, 0.3, 0.71, 1.0}) {
            const Frame f = frame_at(inst, q, v, s, ref);
            // x axis of the frame = the unit tangent of the test's own r(x)
            // (4-point stencil, exact for the cubic: rounding ~1e-14).
            const V3 t = f.x_axis();
            const double hx = 0.01 * kLength, x = s * kLength;
            const V3 m2 = position(q, x - 2 * hx, kLength), m1 = position(q, x - hx, kLength),
                     p1 = position(q, x + hx, kLength), p2 = position(q, x + 2 * hx, kLength);
            V3 tangent{};
            for (int i = 0; i < 3; ++i) tangent[i] = (m2[i] - 8 * m1[i] + 8 * p1[i] - p2[i]) / (12 * hx);
            const double tn = norm(tangent);
            for (int i = 0; i < 3; ++i) worst_axis = std::max(worst_axis, std::abs(t[i] - tangent[i] / tn));
            for (int r = 0; r < 6; ++r) {
                double jv = 0.0;
                for (int c = 0; c < 12; ++c) jv += f.jac[r + 6 * c] * v[c];
                worst_twist = std::max(worst_twist, std::abs(jv - f.twist[r]));
            }
            for (int c = 0; c < 12; ++c) {
                Q qp = q, qm = q;
                qp[c] += d;
                qm[c] -= d;
                const Frame p = frame_at(inst, qp, v, s, ref), m = frame_at(inst, qm, v, s, ref);
                const V3 tp = p.x_axis(), tm = m.x_axis();
                const V3 omega = {f.jac[3 + 6 * c], f.jac[4 + 6 * c], f.jac[5 + 6 * c]};
                const V3 dt = cross(omega, t);
                for (int i = 0; i < 3; ++i) {
                    worst_lin = std::max(worst_lin, std::abs((p.pose[i] - m.pose[i]) / (2 * d) - f.jac[i + 6 * c]));
                    worst_ang = std::max(worst_ang, std::abs((tp[i] - tm[i]) / (2 * d) - dt[i]));
                }
                worst_spin = std::max(worst_spin, std::abs(dot(omega, t)));
            }
        }
        std::printf("[ measured ] frame Jacobian FD error (%s): linear %.3g, angular %.3g; spin %.3g, "
                    "twist - J v %.3g, x axis vs FD tangent %.3g\n",
                    qq == &kCurved ? "curved" : "straight", worst_lin, worst_ang, worst_spin, worst_twist,
                    worst_axis);
        EXPECT_LT(worst_lin, 1e-8);
        EXPECT_LT(worst_ang, 1e-8);
        EXPECT_LT(worst_spin, 1e-15);
        EXPECT_LT(worst_twist, 1e-14);
        EXPECT_LT(worst_axis, 1e-12);
    }
}

TEST_F(AncfCable, MaterialFrameOrientationConvention) {
    // In the reference configuration the frame is the minimal rotation of
    // e_x onto the reference tangent (identity for a cable along x); a rigid
    // rotation of the cable about its reference tangent's normal rotates it.
    PluginInstance inst = make();
    const Q v{};
    const Q along_x = straight({0, 0, 0}, {1, 0, 0}, kLength);
    const Frame f = frame_at(inst, along_x, v, 0.4, along_x);
    EXPECT_NEAR(f.pose[3], 1.0, 1e-15);
    for (int i = 4; i < 7; ++i) EXPECT_NEAR(f.pose[i], 0.0, 1e-15);
    // A cable folded back onto itself (t = -t0): a fixed half-turn, unit quaternion.
    const Q back = straight({0, 0, 0}, {-1, 0, 0}, kLength);
    const Frame b = frame_at(inst, back, v, 0.5, along_x);
    const V3 xb = b.x_axis();
    EXPECT_NEAR(xb[0], -1.0, 1e-12);
    // Offsets and s outside [0, 1] are refused.
    const auto item = items(kLength);
    pivot_element_batch batch{1, 1, item.data(), along_x.data(), v.data(), along_x.data()};
    Frame out;
    const pivot_material_point offset{0, 0, {0.5, 0.01, 0.0}};
    EXPECT_FALSE(checked_material_frames(inst, batch, &offset, 1, unguarded(out.pose.data()),
                                         unguarded(out.twist.data()), unguarded(out.jac.data()))
                     .ok());
    const pivot_material_point beyond{0, 0, {1.5, 0.0, 0.0}};
    EXPECT_FALSE(checked_material_frames(inst, batch, &beyond, 1, unguarded(out.pose.data()),
                                         unguarded(out.twist.data()), unguarded(out.jac.data()))
                     .ok());
}

TEST_F(AncfCable, IntegrateIsExplicitPerNodeAndMayAlias) {
    // Three nodes (two elements sharing the middle one): q+ = q + h v.
    PluginInstance inst = make();
    std::array<double, 18> q{}, v{}, out{};
    for (int k = 0; k < 18; ++k) q[k] = 0.1 * k - 0.7, v[k] = 0.05 * (k % 5) - 0.1;
    ASSERT_TRUE(checked_integrate(inst, 3, q.data(), v.data(), 0.01, unguarded(out.data())).ok());
    for (int k = 0; k < 18; ++k) EXPECT_DOUBLE_EQ(out[k], q[k] + 0.01 * v[k]);
    ASSERT_TRUE(checked_integrate(inst, 3, q.data(), v.data(), 0.01, unguarded(q.data())).ok());
    EXPECT_EQ(q, out);
}

TEST_F(AncfCable, ReferenceMustBeStraightWithUnitGradients) {
    PluginInstance inst = make();
    const auto item = items(kLength);
    const Q v{};
    std::array<double, 144> m{};
    Q bent = straight({0, 0, 0}, {1, 0, 0}, kLength);
    bent[10] = 0.1;  // r_x2 not parallel to r_x1
    pivot_element_batch batch{1, 1, item.data(), bent.data(), v.data(), bent.data()};
    EXPECT_FALSE(checked_mass_matrix(inst, batch, unguarded(m.data())).ok());
    const Q stretched = straight({0, 0, 0}, {1, 0, 0}, kLength, 1.1);
    batch.q_reference = stretched.data();
    EXPECT_FALSE(checked_mass_matrix(inst, batch, unguarded(m.data())).ok());
    const Q shorter = straight({0, 0, 0}, {1, 0, 0}, 0.9 * kLength);
    batch.q_reference = shorter.data();
    EXPECT_FALSE(checked_mass_matrix(inst, batch, unguarded(m.data())).ok());
    const Q good = straight({1, 2, 3}, kTilted, kLength);
    batch.q_reference = good.data();
    EXPECT_TRUE(checked_mass_matrix(inst, batch, unguarded(m.data())).ok());
}

TEST_F(AncfCable, CircularArcHasCurvatureOneOverR) {
    // A circle of radius R cut into N elements, nodes on the circle with unit
    // tangents: the cubic Hermite interpolant has curvature 1/R + O(theta^2)
    // (theta = 2 pi / N the element angle; second derivatives of a cubic
    // Hermite interpolant err by O(h^2)), normal to the plane, and the
    // elastic energy tends to the bending energy of the ring, pi E I / R.
    // Measured: max |kappa R - 1| = 0.059 theta^2 and the energy error
    // 0.0042 theta^4 (the pointwise O(theta^2) error averages out over the
    // element) for N = 8, 16, 32; the bounds leave ~20 % / ~40 % margin, and
    // the curvature error must fall about 4x per halving.
    PluginInstance inst = make(5, 0.0);
    const double R = 0.5;
    double previous = 0.0;
    for (int n : {8, 16, 32}) {
        const double theta = 2 * kPi / n, L = R * theta;
        double worst = 0.0, energy = 0.0;
        for (int e = 0; e < n; ++e) {
            const double a = e * theta, b = a + theta;
            const Q q = {R * std::cos(a), R * std::sin(a), 0, -std::sin(a), std::cos(a), 0,
                         R * std::cos(b), R * std::sin(b), 0, -std::sin(b), std::cos(b), 0};
            const Q ref = straight({0, 0, 0}, {1, 0, 0}, L);
            const Rows out = rows_at(inst, q, L, &ref);
            for (uint32_t i = 0; i < out.count / 4; ++i) {
                worst = std::max(worst, std::abs(out.rows[4 * i + 3].violation * R - 1.0));
                EXPECT_EQ(out.rows[4 * i + 1].violation, 0.0);
                EXPECT_EQ(out.rows[4 * i + 2].violation, 0.0);
            }
            const auto item = items(L);
            const Q v{};
            pivot_element_batch batch{1, 1, item.data(), q.data(), v.data(), ref.data()};
            pivot_step_info step{sizeof(pivot_step_info), 0, 0.01, 0.0, {0, 0, 0}};
            std::array<double, 3> en{};
            ASSERT_TRUE(checked_energy(inst, batch, step, unguarded(en.data())).ok());
            energy += en[2];
        }
        const double ring = kPi * kYoungs * kInertia / R;
        const double energy_error = std::abs(energy / ring - 1.0);
        std::printf("[ measured ] circle, %d elements: max |kappa R - 1| %.3g, energy rel. error %.3g\n", n, worst,
                    energy_error);
        EXPECT_LT(worst, 0.07 * theta * theta);
        EXPECT_LT(energy_error, 0.006 * theta * theta * theta * theta);
        if (previous > 0.0) {
            EXPECT_GT(previous / worst, 3.5);
        }
        previous = worst;
    }
}

// Eigenvalues of a symmetric 12 x 12 matrix (column-major) by cyclic Jacobi
// rotations, ascending.
std::array<double, 12> symmetric_eigenvalues(std::array<double, 144> a) {
    for (int sweep = 0; sweep < 100; ++sweep) {
        double off = 0.0;
        for (int p = 0; p < 12; ++p)
            for (int q = p + 1; q < 12; ++q) off += a[p + 12 * q] * a[p + 12 * q];
        if (off < 1e-30) break;
        for (int p = 0; p < 12; ++p)
            for (int q = p + 1; q < 12; ++q) {
                const double apq = a[p + 12 * q];
                if (apq == 0.0) continue;
                const double theta = (a[q + 12 * q] - a[p + 12 * p]) / (2 * apq);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
                const double c = 1 / std::sqrt(t * t + 1), sn = t * c;
                for (int k = 0; k < 12; ++k) {  // columns p, q
                    const double akp = a[k + 12 * p], akq = a[k + 12 * q];
                    a[k + 12 * p] = c * akp - sn * akq;
                    a[k + 12 * q] = sn * akp + c * akq;
                }
                for (int k = 0; k < 12; ++k) {  // rows p, q
                    const double apk = a[p + 12 * k], aqk = a[q + 12 * k];
                    a[p + 12 * k] = c * apk - sn * aqk;
                    a[q + 12 * k] = sn * apk + c * aqk;
                }
            }
    }
    std::array<double, 12> e{};
    for (int k = 0; k < 12; ++k) e[k] = a[k + 12 * k];
    std::sort(e.begin(), e.end());
    return e;
}

// A curved, non-planar element stretched everywhere (every Gauss point's
// axial strain is positive: checked where used).
const Q kStretchedCurved = {0.0, 0.0, 0.0, 1.3, 0.4, 0.1, 1.1, 0.5, 0.2, 1.2, 0.5, -0.4};
// Compressed near node 1 (|r_x1| < 1), stretched near node 2.
const Q kMixed = {0.0, 0.0, 0.0, 0.7, 0.2, 0.0, 0.9, 0.3, 0.1, 1.5, 0.4, -0.3};

TEST_F(AncfCable, GeometricStiffnessIsTheDerivativeOfTheTensionForces) {
    // With geometric_stiffness = 1, K = d/dq [sum_i lambda_i J_i(q)^T] over
    // the axial rows, lambda_i = phi_i / c_i held fixed (the tension of the
    // configuration): central differences of the plugin's own axial
    // Jacobians. J_i = r_x^T S_x is linear in q, so the differences are exact
    // but for rounding (~1e-16 |F| / d with d = 1e-5: ~1e-11 relative).
    // Scale 0 gives K = 0 and 0.5 gives half of it; the default is automatic.
    PluginInstance inst = make_geometric(1.0);
    const Q& q = kStretchedCurved;
    const Rows base = rows_at(inst, q);
    std::vector<double> lambda;
    for (uint32_t k = 0; k < base.count; k += 4) {
        ASSERT_GT(base.rows[k].violation, 0.0) << "Gauss point " << k / 4 << " is not stretched";
        lambda.push_back(base.rows[k].violation / base.rows[k].compliance);
    }
    auto tension_force = [&](const Q& at) {
        const Rows r = rows_at(inst, at);
        Q f{};
        for (uint32_t k = 0; k < r.count; k += 4)
            for (int c = 0; c < 12; ++c) f[c] += lambda[k / 4] * r.jac[12 * k + c];
        return f;
    };
    const std::array<double, 144> K = stiffness_at(inst, q);
    const double d = 1e-5;
    double worst = 0.0, kmax = 0.0, asym = 0.0;
    for (int c = 0; c < 12; ++c) {
        Q qp = q, qm = q;
        qp[c] += d;
        qm[c] -= d;
        const Q fp = tension_force(qp), fm = tension_force(qm);
        for (int r = 0; r < 12; ++r) {
            worst = std::max(worst, std::abs((fp[r] - fm[r]) / (2 * d) - K[r + 12 * c]));
            kmax = std::max(kmax, std::abs(K[r + 12 * c]));
            asym = std::max(asym, std::abs(K[r + 12 * c] - K[c + 12 * r]));
        }
    }
    const auto eig = symmetric_eigenvalues(K);
    std::printf("[ measured ] geometric stiffness vs FD of sum lambda J^T (stretched, curved): %.3g relative "
                "(max |K| %.3g N/m); asymmetry %.3g; eigenvalues %.3g .. %.3g\n",
                worst / kmax, kmax, asym, eig.front(), eig.back());
    ASSERT_GT(kmax, 0.0);
    EXPECT_LT(worst / kmax, 1e-6);
    EXPECT_LT(asym, 1e-14 * kmax);  // symmetric to rounding (t S_a S_b vs t S_b S_a)
    EXPECT_GT(eig.front(), -1e-12 * kmax);
    // Scale 0: nothing. Scale 0.5: half. The default (automatic): all of it
    // at h = 0.01 s (at its largest strain, 0.43, the worst wave this
    // element holds, k = pi / L, has h^2 (T k^2 - E I k^4) / (rho A) = 6.5,
    // past the bound 4), nothing at h = 1e-6 s (6.5e-8).
    for (double x : stiffness_at(make_geometric(0.0), q)) EXPECT_EQ(x, 0.0);
    const std::array<double, 144> automatic = stiffness_at(make(), q);
    for (int k = 0; k < 144; ++k) EXPECT_EQ(automatic[k], K[k]);
    for (double x : stiffness_at(make(), q, kLength, 1e-6)) EXPECT_EQ(x, 0.0);
    const std::array<double, 144> half = stiffness_at(make_geometric(0.5), q);
    double worst_half = 0.0;
    for (int k = 0; k < 144; ++k) worst_half = std::max(worst_half, std::abs(half[k] - 0.5 * K[k]));
    EXPECT_LT(worst_half, 1e-14 * kmax);
}

TEST_F(AncfCable, GeometricStiffnessDropsCompressedGaussPoints) {
    // Partly compressed: only the stretched Gauss points contribute (K
    // equals the FD of the tension force over those alone); the result is
    // symmetric positive semidefinite, while the full sum over all axial rows
    // (compression included) is indefinite. Wholly compressed: K = 0.
    PluginInstance inst = make_geometric(1.0);
    const Q& q = kMixed;
    const Rows base = rows_at(inst, q);
    std::vector<double> lambda_all, lambda_tension;
    int stretched = 0, compressed = 0;
    for (uint32_t k = 0; k < base.count; k += 4) {
        const double l = base.rows[k].violation / base.rows[k].compliance;
        lambda_all.push_back(l);
        lambda_tension.push_back(std::max(l, 0.0));
        (l > 0 ? stretched : compressed)++;
    }
    ASSERT_GT(stretched, 0);
    ASSERT_GT(compressed, 0);
    auto fd_stiffness = [&](const std::vector<double>& lambda) {
        std::array<double, 144> k{};
        const double d = 1e-5;
        for (int c = 0; c < 12; ++c) {
            Q qp = q, qm = q;
            qp[c] += d;
            qm[c] -= d;
            const Rows p = rows_at(inst, qp), m = rows_at(inst, qm);
            for (uint32_t r = 0; r < p.count; r += 4)
                for (int a = 0; a < 12; ++a)
                    k[a + 12 * c] += lambda[r / 4] * (p.jac[12 * r + a] - m.jac[12 * r + a]) / (2 * d);
        }
        return k;
    };
    const std::array<double, 144> K = stiffness_at(inst, q);
    const std::array<double, 144> tension = fd_stiffness(lambda_tension), all = fd_stiffness(lambda_all);
    double worst = 0.0, kmax = 0.0, asym = 0.0;
    for (int k = 0; k < 144; ++k) {
        worst = std::max(worst, std::abs(K[k] - tension[k]));
        kmax = std::max(kmax, std::abs(K[k]));
    }
    for (int r = 0; r < 12; ++r)
        for (int c = 0; c < 12; ++c) asym = std::max(asym, std::abs(K[r + 12 * c] - K[c + 12 * r]));
    const auto eig = symmetric_eigenvalues(K), eig_all = symmetric_eigenvalues(all);
    std::printf("[ measured ] mixed tension/compression (%d stretched, %d compressed Gauss points): K vs FD over the "
                "stretched points %.3g relative; K eigenvalues %.3g .. %.3g; with compression %.3g .. %.3g\n",
                stretched, compressed, worst / kmax, eig.front(), eig.back(), eig_all.front(), eig_all.back());
    ASSERT_GT(kmax, 0.0);
    EXPECT_LT(worst / kmax, 1e-6);
    EXPECT_LT(asym, 1e-14 * kmax);  // symmetric to rounding (t S_a S_b vs t S_b S_a)
    EXPECT_GT(eig.front(), -1e-12 * kmax);
    EXPECT_LT(eig_all.front(), -1e-3 * kmax);  // what dropping compression avoids
    // Wholly compressed (a straight element at 90 % of its length): zero.
    for (double x : stiffness_at(inst, straight({0.1, 0.2, 0.3}, kTilted, kLength, 0.9))) EXPECT_EQ(x, 0.0);
    // Stress-free: zero.
    for (double x : stiffness_at(inst, straight({0.1, 0.2, 0.3}, kTilted, kLength))) EXPECT_EQ(std::abs(x), 0.0);
}

TEST_F(AncfCable, AxialViolationPredictsTheStretchOfTheStep) {
    // phi = (r_x.r_x - 1)/2 is quadratic in q, so for q+ = q + h v exactly
    //   phi(q+) = phi(q) + h J v + (h^2/2) |S_x v|^2,
    // and the axial row's violation, phi + (h^2/2)|r_x-dot|^2 with r_x-dot =
    // S_x v at the step's start, makes the host's linearization
    // violation + h J v+ exact when v+ = v (rounding only), and O(h^3) when
    // v+ = v + h a differs by the step's change: error h^3 (S_x v).(S_x a) +
    // O(h^4), ratio ~8 per halving of h. Without the term the error is
    // (h^2/2)|S_x v|^2: ratio 4. Curvature rows are unchanged by v.
    PluginInstance inst = make(5);
    const Q& q = kCurved;
    const Q v = {0.3, -0.7, 0.5, 1.1, 0.4, -0.9, -0.6, 0.8, 0.2, -0.5, -1.2, 0.7};
    const Q a = {-2.0, 1.5, 0.7, 3.0, -1.0, 2.5, 1.2, -0.4, -2.2, 0.9, 1.7, -3.1};
    const Rows still = rows_at(inst, q);
    auto shifted = [&](const Q& rate, double h) {
        Q out = q;
        for (int c = 0; c < 12; ++c) out[c] += h * rate[c];
        return out;
    };
    struct Errors {
        std::vector<double> exact, changed, without;
        double bending = 0.0;
    };
    auto errors = [&](double h) {
        Errors e;
        const Rows moving = rows_moving(inst, q, v, h);
        Q vplus{};
        for (int c = 0; c < 12; ++c) vplus[c] = v[c] + h * a[c];
        const Rows next = rows_at(inst, shifted(v, h)), next_changed = rows_at(inst, shifted(vplus, h));
        for (uint32_t k = 0; k < moving.count; ++k) {
            double jv = 0.0, jvplus = 0.0;
            for (int c = 0; c < 12; ++c) {
                jv += moving.jac[12 * k + c] * v[c];
                jvplus += moving.jac[12 * k + c] * vplus[c];
                EXPECT_EQ(moving.jac[12 * k + c], still.jac[12 * k + c]);
            }
            if (k % 4 != 0) {
                e.bending = std::max(e.bending, std::abs(moving.rows[k].violation - still.rows[k].violation));
                continue;
            }
            e.exact.push_back(next.rows[k].violation - (moving.rows[k].violation + h * jv));
            e.changed.push_back(next_changed.rows[k].violation - (moving.rows[k].violation + h * jvplus));
            e.without.push_back(next.rows[k].violation - (still.rows[k].violation + h * jv));
        }
        return e;
    };
    const double h = 2e-3;
    const Errors e1 = errors(h), e2 = errors(h / 2);
    double worst_exact = 0.0, lo8 = HUGE_VAL, hi8 = 0.0, lo4 = HUGE_VAL, hi4 = 0.0, smallest_term = HUGE_VAL;
    for (size_t i = 0; i < e1.exact.size(); ++i) {
        worst_exact = std::max({worst_exact, std::abs(e1.exact[i]), std::abs(e2.exact[i])});
        smallest_term = std::min(smallest_term, std::abs(e1.without[i]));
        const double r8 = e1.changed[i] / e2.changed[i], r4 = e1.without[i] / e2.without[i];
        lo8 = std::min(lo8, r8), hi8 = std::max(hi8, r8);
        lo4 = std::min(lo4, r4), hi4 = std::max(hi4, r4);
    }
    std::printf("[ measured ] predicted axial violation, h = %.3g: with v+ = v error %.3g (the term is >= %.3g); "
                "with v+ = v + h a ratio per halving %.4g .. %.4g; without the term %.4g .. %.4g; bending rows "
                "changed by %.3g\n",
                h, worst_exact, smallest_term, lo8, hi8, lo4, hi4, e1.bending);
    EXPECT_LT(worst_exact, 1e-9 * smallest_term);
    EXPECT_GT(lo8, 7.5);
    EXPECT_LT(hi8, 8.5);
    EXPECT_GT(lo4, 3.99);
    EXPECT_LT(hi4, 4.01);
    EXPECT_EQ(e1.bending, 0.0);
}

TEST_F(AncfCable, NodeCoordinatesPlaceAnUnstrainedNode) {
    // r = the pose's position, r_x = its x axis (unit), for any unit or
    // unnormalized quaternion; nodes placed along a line with that axis make
    // a reference the element accepts and that is strain-free. A zero or
    // non-finite quaternion is refused.
    PluginInstance inst = make();
    const V3 p = {0.4, -1.3, 2.2};
    double worst = 0.0;
    for (const V3& axis : {V3{1, 0, 0}, V3{0, 0, 1}, V3{0.3 / 0.9, 0.6 / 0.9, 0.6 / 0.9}}) {
        for (double angle : {0.0, 0.7, 2.0, kPi}) {
            for (double scale : {1.0, 3.0}) {
                const double c = std::cos(angle / 2), sn = std::sin(angle / 2);
                const double pose[7] = {p[0], p[1], p[2], scale * c, scale * sn * axis[0], scale * sn * axis[1],
                                        scale * sn * axis[2]};
                // e_x rotated by angle about axis (Rodrigues).
                const V3 ex = {1, 0, 0}, k = cross(axis, ex);
                V3 t{};
                for (int i = 0; i < 3; ++i)
                    t[i] = ex[i] * std::cos(angle) + k[i] * std::sin(angle) + axis[i] * axis[0] * (1 - std::cos(angle));
                std::array<double, 6> node{};
                ASSERT_TRUE(checked_node_coordinates(inst, pose, unguarded(node.data())).ok());
                for (int i = 0; i < 3; ++i) {
                    EXPECT_EQ(node[i], p[i]);
                    worst = std::max(worst, std::abs(node[3 + i] - t[i]));
                }
                EXPECT_NEAR(norm({node[3], node[4], node[5]}), 1.0, 1e-15);
                // Two such nodes L apart along t: an accepted, strain-free element.
                Q element{};
                for (int i = 0; i < 6; ++i) element[i] = node[i];
                const double pose2[7] = {p[0] + kLength * t[0], p[1] + kLength * t[1], p[2] + kLength * t[2],
                                         pose[3], pose[4], pose[5], pose[6]};
                ASSERT_TRUE(checked_node_coordinates(inst, pose2, unguarded(element.data() + 6)).ok());
                const auto item = items(kLength);
                const Q v{};
                std::array<double, 144> m{};
                pivot_element_batch batch{1, 1, item.data(), element.data(), v.data(), element.data()};
                EXPECT_TRUE(checked_mass_matrix(inst, batch, unguarded(m.data())).ok());
                for (const pivot_row& r : rows_at(inst, element, kLength, &element).rows)
                    EXPECT_LT(std::abs(r.violation), 1e-14);
            }
        }
    }
    std::printf("[ measured ] node_coordinates: r_x vs the rotated x axis %.3g\n", worst);
    EXPECT_LT(worst, 1e-15 * 4);
    std::array<double, 6> node{};
    const double zero[7] = {0, 0, 0, 0, 0, 0, 0};
    EXPECT_FALSE(checked_node_coordinates(inst, zero, unguarded(node.data())).ok());
    const double nan[7] = {0, 0, 0, std::nan(""), 0, 0, 0};
    EXPECT_FALSE(checked_node_coordinates(inst, nan, unguarded(node.data())).ok());
}

// ---- ABI 1.10: smooth_forces and force_tangent (the GSSSS integrators) ----

// A moving, curved, stretched state: velocities of every kind (stretch,
// bending, rigid).
const Q kMoving = {0.3, -0.2, 0.5, 1.1, 0.7, -0.4, -0.6, 0.2, 0.9, 0.5, -1.2, 0.3};

class AncfCableSmooth : public AncfCable {
protected:
    Q smooth(const PluginInstance& inst, const Q& q, const Q& v, V3 g = {0, 0, -9.81}) const {
        const Q reference = straight({0, 0, 0}, {1, 0, 0}, kLength);
        const auto item = items(kLength);
        pivot_element_batch batch{1, 1, item.data(), q.data(), v.data(), reference.data()};
        const pivot_step_info step{sizeof(pivot_step_info), 0, 0.0, 0.0, {g[0], g[1], g[2]}};
        Q f{};
        const CallResult r = checked_smooth_forces(inst, batch, step, unguarded(f.data()));
        EXPECT_TRUE(r.ok()) << r.message;
        return f;
    }
};

TEST_F(AncfCableSmooth, ForcesAreMinusTheGradientOfThePotential) {
    // Without damping f = -d(U_g + W)/dq, W the elastic energy of energy():
    // central differences with d = 1e-6 on coordinates of O(1): truncation
    // ~d^2 |U'''| and rounding ~1e-16 |U| / d, ~1e-10 of max |f| here; the
    // bound 1e-7 is far below any single term of the force (the test fails
    // if a row's force is dropped or has the wrong sign).
    PluginInstance inst = make(5, 0.0);
    for (const Q& q : {kCurved, straight({0.1, 0.2, 0.3}, kTilted, kLength, 1.02)}) {
        const Q f = smooth(inst, q, kMoving);
        const double d = 1e-6;
        double worst = 0.0, fmax = 0.0;
        for (int c = 0; c < 12; ++c) {
            Q qp = q, qm = q;
            qp[c] += d;
            qm[c] -= d;
            const auto ep = energies(inst, qp, kMoving), em = energies(inst, qm, kMoving);
            const double fd = -((ep[1] + ep[2]) - (em[1] + em[2])) / (2 * d);
            worst = std::max(worst, std::abs(fd - f[c]));
            fmax = std::max(fmax, std::abs(f[c]));
        }
        std::printf("[ measured ] smooth_forces vs -grad (U_g + W): %.3g relative (max |f| %.3g N)\n", worst / fmax,
                    fmax);
        EXPECT_LT(worst / fmax, 1e-7);
    }
}

TEST_F(AncfCableSmooth, ForcesAreTheRowForcesOfTheStepWithoutItsPrediction) {
    // With damping tau: f = Q_g + sum_rows J^T lambda, lambda = -(phi + d J v) / c
    // with the compliance c and damping d of internal_rows (the semi-implicit
    // step's law for the same rows) at timestep 0, where the axial rows carry
    // no predicted stretch. The same arithmetic in another order: 1e-12.
    PluginInstance inst = make(5, kTau);
    const Rows rows = rows_moving(inst, kCurved, kMoving, 0.0);
    Q expected{};
    const auto item = items(kLength);
    const Q reference = straight({0, 0, 0}, {1, 0, 0}, kLength);
    pivot_element_batch batch{1, 1, item.data(), kCurved.data(), kMoving.data(), reference.data()};
    const pivot_step_info step{sizeof(pivot_step_info), 0, 0.01, 0.0, {0, 0, -9.81}};
    ASSERT_TRUE(checked_generalized_forces(inst, batch, step, unguarded(expected.data())).ok());  // gravity
    for (uint32_t k = 0; k < rows.count; ++k) {
        const pivot_row& r = rows.rows[k];
        double rate = 0.0;
        for (int c = 0; c < 12; ++c) rate += rows.jac[12 * k + c] * kMoving[c];
        const double lambda = -(r.violation + r.damping * r.compliance * rate) / r.compliance;
        for (int c = 0; c < 12; ++c) expected[c] += rows.jac[12 * k + c] * lambda;
    }
    const Q f = smooth(inst, kCurved, kMoving);
    double worst = 0.0, fmax = 0.0;
    for (int c = 0; c < 12; ++c) {
        worst = std::max(worst, std::abs(f[c] - expected[c]));
        fmax = std::max(fmax, std::abs(expected[c]));
    }
    EXPECT_LT(worst, 1e-12 * fmax);
}

TEST_F(AncfCableSmooth, TangentMatchesFiniteDifferences) {
    // r = M a - f(q, v) (M constant): dr/dq and dr/dv against central
    // differences of smooth_forces, at a curved moving state and at a
    // straight stretched one (kappa = 0, where only the curvature Hessian's
    // terms through the gradients remain), with and without damping. Step
    // 1e-6 on O(1) coordinates: truncation ~1e-12 |f'''| and rounding
    // ~1e-16 |f| / 1e-6 = 1e-10 |f|: 1e-7 of the largest entry is a
    // thousand times above that and far below the Hessian terms (without
    // the curvature rows' phi H the curved state misses by 8e-3: checked).
    for (double tau : {0.0, kTau}) {
        PluginInstance inst = make(5, tau);
        for (const Q& q : {kCurved, straight({0.1, 0.2, 0.3}, kTilted, kLength, 1.02)}) {
            const auto item = items(kLength);
            const Q reference = straight({0, 0, 0}, {1, 0, 0}, kLength);
            pivot_element_batch batch{1, 1, item.data(), q.data(), kMoving.data(), reference.data()};
            const pivot_step_info step{sizeof(pivot_step_info), 0, 0.0, 0.0, {0, 0, -9.81}};
            const Q a{};
            std::array<double, 144> k{}, damping{};
            k.fill(-1.0);  // every entry written
            damping.fill(-1.0);
            ASSERT_TRUE(
                checked_force_tangent(inst, batch, step, a.data(), unguarded(k.data()), unguarded(damping.data()))
                    .ok());
            const double e = 1e-6;
            double worst_k = 0.0, worst_d = 0.0, kmax = 0.0, dmax = 0.0;
            for (int c = 0; c < 12; ++c) {
                Q qp = q, qm = q, vp = kMoving, vm = kMoving;
                qp[c] += e;
                qm[c] -= e;
                vp[c] += e;
                vm[c] -= e;
                const Q fqp = smooth(inst, qp, kMoving), fqm = smooth(inst, qm, kMoving);
                const Q fvp = smooth(inst, q, vp), fvm = smooth(inst, q, vm);
                for (int r = 0; r < 12; ++r) {
                    worst_k = std::max(worst_k, std::abs(-(fqp[r] - fqm[r]) / (2 * e) - k[r + 12 * c]));
                    worst_d = std::max(worst_d, std::abs(-(fvp[r] - fvm[r]) / (2 * e) - damping[r + 12 * c]));
                    kmax = std::max(kmax, std::abs(k[r + 12 * c]));
                    dmax = std::max(dmax, std::abs(damping[r + 12 * c]));
                }
            }
            std::printf("[ measured ] force_tangent vs FD (tau %g): stiffness %.3g relative (max %.3g N/m), "
                        "damping %.3g (max %.3g N s/m)\n",
                        tau, worst_k / kmax, kmax, dmax > 0 ? worst_d / dmax : worst_d, dmax);
            EXPECT_LT(worst_k, 1e-7 * kmax);
            if (tau == 0.0) {
                EXPECT_EQ(dmax, 0.0);
            } else {
                EXPECT_LT(worst_d, 1e-7 * dmax);
            }
        }
    }
}

}  // namespace
}  // namespace pivot

// pivot.element.rigid_body through the ABI: mass matrix, material-frame
// Jacobians checked by finite differences, the exact exponential-map
// orientation update, and the implicit gyroscopic torque (against the
// implicit Euler equation it solves, and against the explicit one).
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "plugin_host/plugin_registry.hpp"

namespace pivot {
namespace {

class RigidBody : public ::testing::Test {
protected:
    void SetUp() override {
        LoadReport report = registry.load(PIVOT_FIRST_PARTY_PLUGIN_DIR);
        plugin = registry.find("pivot.element.rigid_body");
        ASSERT_NE(plugin, nullptr);
    }
    PluginInstance make(const char* gyroscopic = "implicit") {
        return PluginInstance(*plugin, pack_params(*plugin, ParamScope::instance, {{"gyroscopic", gyroscopic}}, "t"));
    }
    std::vector<double> body(double mass, std::array<double, 3> diagonal, std::array<double, 3> products) {
        return pack_params(*plugin, ParamScope::item,
                           {{"mass", mass}, {"inertia_diagonal", diagonal}, {"inertia_products", products}}, "t");
    }
    PluginRegistry registry;
    const PluginRecord* plugin = nullptr;
};

// A body rotated 0.7 rad about a tilted axis, moving and spinning.
struct State {
    std::array<double, 7> q;
    std::array<double, 6> v = {0.3, -0.2, 0.5, 1.5, -0.7, 2.0};
    State() {
        const double a = 0.7, n = std::sqrt(3.0);
        q = {1.0, 2.0, 3.0, std::cos(a / 2), std::sin(a / 2) / n, std::sin(a / 2) / n, -std::sin(a / 2) / n};
    }
};

TEST_F(RigidBody, MassMatrixIsDiagonalMassAndRotatedInertia) {
    PluginInstance inst = make();
    const auto items = body(2.0, {0.1, 0.2, 0.3}, {0.01, 0.0, -0.02});
    State s;
    pivot_element_batch batch{1, 7, items.data(), s.q.data(), s.v.data(), s.q.data()};
    std::array<double, 36> m{};
    ASSERT_TRUE(checked_mass_matrix(inst, batch, unguarded(m.data())).ok());  // also checks symmetry
    for (int i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(m[i + 6 * i], 2.0);
    EXPECT_DOUBLE_EQ(m[0 + 6 * 3], 0.0);
    // The trace of R I R^T is the trace of I.
    EXPECT_NEAR(m[3 + 6 * 3] + m[4 + 6 * 4] + m[5 + 6 * 5], 0.6, 1e-15);
}

TEST_F(RigidBody, NonPositiveDefiniteInertiaIsAnError) {
    PluginInstance inst = make();
    const auto items = body(1.0, {0.1, 0.1, 0.1}, {0.2, 0.0, 0.0});  // Ixx Iyy - Ixy^2 < 0
    State s;
    pivot_element_batch batch{1, 7, items.data(), s.q.data(), s.v.data(), s.q.data()};
    std::array<double, 36> m{};
    EXPECT_FALSE(checked_mass_matrix(inst, batch, unguarded(m.data())).ok());
}

TEST_F(RigidBody, MaterialFrameJacobianMatchesFiniteDifferences) {
    // The twist of a material point is J v; its position moves by J_lin v dt
    // and its orientation by omega dt: check against integrate() over a small
    // dt with central differences (error O(dt^2) ~ 1e-12 relative).
    PluginInstance inst = make();
    const auto items = body(1.0, {1, 2, 3}, {0, 0, 0});
    State s;
    const pivot_material_point point{0, 0, {0.4, -0.3, 0.25}};
    auto frame_at = [&](const std::array<double, 7>& q, double* pose, double* twist, double* jac) {
        pivot_element_batch batch{1, 7, items.data(), q.data(), s.v.data(), q.data()};
        ASSERT_TRUE(
            checked_material_frames(inst, batch, &point, 1, unguarded(pose), unguarded(twist), unguarded(jac)).ok());
    };
    std::array<double, 7> pose{};
    std::array<double, 6> twist{};
    std::array<double, 36> jac{};
    frame_at(s.q, pose.data(), twist.data(), jac.data());
    for (int r = 0; r < 6; ++r) {
        double jv = 0.0;
        for (int c = 0; c < 6; ++c) jv += jac[r + 6 * c] * s.v[c];
        EXPECT_NEAR(jv, twist[r], 1e-14);
    }
    const double dt = 1e-6;
    std::array<double, 7> plus{}, minus{};
    ASSERT_TRUE(checked_integrate(inst, 1, s.q.data(), s.v.data(), dt, unguarded(plus.data())).ok());
    std::array<double, 6> back = s.v;
    for (double& x : back) x = -x;
    ASSERT_TRUE(checked_integrate(inst, 1, s.q.data(), back.data(), dt, unguarded(minus.data())).ok());
    std::array<double, 7> pose_plus{}, pose_minus{};
    std::array<double, 6> unused_twist{};
    std::array<double, 36> unused_jac{};
    frame_at(plus, pose_plus.data(), unused_twist.data(), unused_jac.data());
    frame_at(minus, pose_minus.data(), unused_twist.data(), unused_jac.data());
    for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR((pose_plus[i] - pose_minus[i]) / (2 * dt), twist[i], 1e-8) << i;
    }
}

// frame_stiffness (ABI 1.3): the generalized force J_p(q)^T W of a wrench W
// held fixed at a material point changes, for a displacement du of the
// body (dx, dtheta: q <- integrate(q, du, 1)), as -J_p^T K_p J_p du.
// Checked by central differences of J_p^T W through material_frames at
// displaced configurations, for points off the centre and a wrench with
// force and torque; step 1e-6, truncation ~ |W| |r| eps^2, rounding
// ~ 1e-16 |W| |r| / eps: agreement to 1e-8 of the entries' scale.
TEST_F(RigidBody, FrameStiffnessMatchesFiniteDifferences) {
    PluginInstance inst = make();
    const auto items = body(2.0, {0.1, 0.2, 0.3}, {0.01, 0.0, -0.02});
    State s;
    const pivot_material_point point{0, 0, {0.3, -0.4, 0.25}};
    const std::array<double, 6> wrench = {3.0, -1.5, 7.0, 0.4, -0.2, 0.9};
    // The frame Jacobian J_p(q) (6 x 6, column-major) and J_p(q)^T W.
    auto frame_jacobian = [&](const std::array<double, 7>& q) {
        pivot_element_batch batch{1, 7, items.data(), q.data(), s.v.data(), q.data()};
        std::array<double, 7> pose{};
        std::array<double, 6> twist{};
        std::array<double, 36> jac{};
        EXPECT_TRUE(checked_material_frames(inst, batch, &point, 1, unguarded(pose.data()), unguarded(twist.data()),
                                            unguarded(jac.data()))
                        .ok());
        return jac;
    };
    auto force = [&](const std::array<double, 7>& q) {
        const std::array<double, 36> jac = frame_jacobian(q);
        std::array<double, 6> g{};
        for (int c = 0; c < 6; ++c) {
            for (int i = 0; i < 6; ++i) g[c] += jac[i + 6 * c] * wrench[i];
        }
        return g;
    };
    pivot_element_batch batch{1, 7, items.data(), s.q.data(), s.v.data(), s.q.data()};
    std::array<double, 36> k{};
    ASSERT_TRUE(checked_frame_stiffness(inst, batch, &point, 1, wrench.data(), unguarded(k.data())).ok());
    const std::array<double, 36> jac = frame_jacobian(s.q);
    // Analytic: J^T K J (column-major 6 x 6).
    std::array<double, 36> analytic{};
    for (int a = 0; a < 6; ++a) {
        for (int b = 0; b < 6; ++b) {
            double sum = 0.0;
            for (int i = 0; i < 6; ++i) {
                for (int j = 0; j < 6; ++j) sum += jac[i + 6 * a] * k[i + 6 * j] * jac[j + 6 * b];
            }
            analytic[a + 6 * b] = sum;
        }
    }
    const double eps = 1e-6;
    double worst = 0.0;
    for (int c = 0; c < 6; ++c) {
        std::array<double, 6> du{};
        du[c] = eps;
        std::array<double, 7> plus{}, minus{};
        std::array<double, 6> back{};
        for (int i = 0; i < 6; ++i) back[i] = -du[i];
        ASSERT_TRUE(checked_integrate(inst, 1, s.q.data(), du.data(), 1.0, unguarded(plus.data())).ok());
        ASSERT_TRUE(checked_integrate(inst, 1, s.q.data(), back.data(), 1.0, unguarded(minus.data())).ok());
        const auto gp = force(plus), gm = force(minus);
        for (int r = 0; r < 6; ++r) {
            const double fd = -(gp[r] - gm[r]) / (2 * eps);
            worst = std::max(worst, std::abs(fd - analytic[r + 6 * c]));
        }
    }
    // Entries are of size |F| |r| ~ 4 N m.
    EXPECT_LT(worst, 4e-8) << worst;
    // Only the rotational block: a force on the centre or a torque does not turn.
    for (int r = 0; r < 6; ++r) {
        for (int c = 0; c < 6; ++c) {
            if (r < 3 || c < 3) {
                EXPECT_EQ(k[r + 6 * c], 0.0) << r << " " << c;
            }
        }
    }
}

TEST_F(RigidBody, OrientationUpdateIsTheExactRotationForConstantOmega) {
    // 1000 steps at constant omega = 2 rad/s about z from identity: the angle
    // is 2 t exactly (to rounding), with no drift of the quaternion norm.
    PluginInstance inst = make();
    std::array<double, 7> q = {0, 0, 0, 1, 0, 0, 0};
    const std::array<double, 6> v = {0, 0, 0, 0, 0, 2.0};
    for (int k = 0; k < 1000; ++k)
        ASSERT_TRUE(checked_integrate(inst, 1, q.data(), v.data(), 0.01, unguarded(q.data())).ok());
    const double angle = 2.0 * std::atan2(q[6], q[3]);
    EXPECT_NEAR(std::remainder(angle - 20.0, 2 * M_PI), 0.0, 1e-12);
    EXPECT_NEAR(q[3] * q[3] + q[6] * q[6], 1.0, 1e-15);
}

TEST_F(RigidBody, ImplicitGyroscopicTorqueSolvesTheLinearizedImplicitEquation) {
    // With tau from the element, w2 = w1 + h I_w^-1 tau must solve
    // I (w2 - w1) + h w2 x I w2 = 0 up to what one Newton step leaves:
    // O(h |dw|^2 I) with dw = O(h |w|^2), i.e. O(h^3 |w|^4 I) ~ 4e-8 here
    // (h = 1e-3, |w| ~ 2.5). The explicit torque leaves O(h^2 |w|^3 I) ~ 7e-6,
    // so the bound 1e-7 tells the two apart.
    PluginInstance inst = make("implicit");
    const auto items = body(1.0, {0.2, 0.5, 0.9}, {0, 0, 0});
    std::array<double, 7> q = {0, 0, 0, 1, 0, 0, 0};  // body frame = world frame
    const std::array<double, 6> v = {0, 0, 0, 0.3, 2.5, 0.4};
    const double h = 1e-3;
    pivot_element_batch batch{1, 7, items.data(), q.data(), v.data(), q.data()};
    pivot_step_info step{sizeof(pivot_step_info), 0, h, 0.0, {0, 0, 0}};
    std::array<double, 6> f{};
    ASSERT_TRUE(checked_generalized_forces(inst, batch, step, unguarded(f.data())).ok());
    const double I[3] = {0.2, 0.5, 0.9};
    double w2[3], residual[3];
    for (int i = 0; i < 3; ++i) w2[i] = v[3 + i] + h * f[3 + i] / I[i];
    const double Iw2[3] = {I[0] * w2[0], I[1] * w2[1], I[2] * w2[2]};
    const double c[3] = {w2[1] * Iw2[2] - w2[2] * Iw2[1], w2[2] * Iw2[0] - w2[0] * Iw2[2],
                         w2[0] * Iw2[1] - w2[1] * Iw2[0]};
    for (int i = 0; i < 3; ++i) residual[i] = I[i] * (w2[i] - v[3 + i]) + h * c[i];
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(residual[i], 0.0, 1e-7) << i;
    // Gravity on the linear part, untouched by the rotation.
    EXPECT_EQ(f[0], 0.0);
}

TEST_F(RigidBody, SymmetricBodySpinningAboutItsAxisHasNoGyroscopicTorque) {
    for (const char* mode : {"implicit", "explicit"}) {
        PluginInstance inst = make(mode);
        const auto items = body(1.0, {0.4, 0.4, 0.1}, {0, 0, 0});
        State s;
        // Spin about the body z axis, expressed in world: R e_z.
        const double w = s.q[3], x = s.q[4], y = s.q[5], z = s.q[6];
        const double axis[3] = {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)};
        std::array<double, 6> v = {0, 0, 0, 30 * axis[0], 30 * axis[1], 30 * axis[2]};
        pivot_element_batch batch{1, 7, items.data(), s.q.data(), v.data(), s.q.data()};
        pivot_step_info step{sizeof(pivot_step_info), 0, 0.01, 0.0, {0, 0, -9.81}};
        std::array<double, 6> f{};
        ASSERT_TRUE(checked_generalized_forces(inst, batch, step, unguarded(f.data())).ok());
        for (int i = 3; i < 6; ++i) EXPECT_NEAR(f[i], 0.0, 1e-12) << mode << " " << i;
        EXPECT_DOUBLE_EQ(f[2], -9.81);
    }
}

// ABI 1.10: the forces at the state are those of the explicit gyroscopic
// torque whatever the element's setting (but none) and whatever timestep.
TEST_F(RigidBody, SmoothForcesAreTheExplicitForcesAtAnyStep) {
    const auto items = body(2.0, {0.2, 0.5, 0.9}, {0.01, -0.02, 0.03});
    State s;
    pivot_element_batch batch{1, 7, items.data(), s.q.data(), s.v.data(), s.q.data()};
    PluginInstance explicit_body = make("explicit");
    const pivot_step_info at_60hz{sizeof(pivot_step_info), 0, 1.0 / 60, 0.0, {0, 0, -9.81}};
    std::array<double, 6> expected{};
    ASSERT_TRUE(checked_generalized_forces(explicit_body, batch, at_60hz, unguarded(expected.data())).ok());
    for (const char* mode : {"implicit", "explicit"}) {
        PluginInstance inst = make(mode);
        std::array<double, 6> f{};
        const pivot_step_info no_step{sizeof(pivot_step_info), 0, 0.0, 0.0, {0, 0, -9.81}};
        ASSERT_TRUE(checked_smooth_forces(inst, batch, no_step, unguarded(f.data())).ok());
        for (int i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(f[i], expected[i]) << mode << " " << i;
    }
    PluginInstance none = make("none");
    std::array<double, 6> f{};
    ASSERT_TRUE(checked_smooth_forces(none, batch, at_60hz, unguarded(f.data())).ok());
    for (int i = 3; i < 6; ++i) EXPECT_EQ(f[i], 0.0);
}

// The tangent of r = M(q) a - f(q, v) against central differences: in q
// along integrate's displacements (q (+) e dq, world-frame rotation), in v
// directly. Step 1e-6 on entries of O(1): truncation ~1e-12, rounding
// ~1e-10; the bound 1e-7 is far below the terms it checks (O(0.1-10)).
TEST_F(RigidBody, ForceTangentMatchesFiniteDifferences) {
    const auto items = body(2.0, {0.2, 0.5, 0.9}, {0.01, -0.02, 0.03});
    const std::array<double, 6> a = {0.4, -1.0, 2.0, 3.0, -2.0, 1.5};
    const pivot_step_info step{sizeof(pivot_step_info), 0, 0.0, 0.0, {0, 0, -9.81}};
    for (const char* mode : {"explicit", "none"}) {
        PluginInstance inst = make(mode);
        const auto residual = [&](const std::array<double, 7>& q, const std::array<double, 6>& v) {
            pivot_element_batch batch{1, 7, items.data(), q.data(), v.data(), q.data()};
            std::array<double, 36> m{};
            std::array<double, 6> f{};
            EXPECT_TRUE(checked_mass_matrix(inst, batch, unguarded(m.data())).ok());
            EXPECT_TRUE(checked_smooth_forces(inst, batch, step, unguarded(f.data())).ok());
            std::array<double, 6> r{};
            for (int i = 0; i < 6; ++i) {
                r[i] = -f[i];
                for (int j = 0; j < 6; ++j) r[i] += m[i + 6 * j] * a[j];
            }
            return r;
        };
        State s;
        pivot_element_batch batch{1, 7, items.data(), s.q.data(), s.v.data(), s.q.data()};
        std::array<double, 36> k{}, d{};
        ASSERT_TRUE(checked_force_tangent(inst, batch, step, a.data(), unguarded(k.data()), unguarded(d.data())).ok());
        const double e = 1e-6;
        for (int j = 0; j < 6; ++j) {
            std::array<double, 6> unit{};
            unit[j] = 1.0;
            std::array<double, 7> qp{}, qm{};
            ASSERT_TRUE(checked_integrate(inst, 1, s.q.data(), unit.data(), e, unguarded(qp.data())).ok());
            ASSERT_TRUE(checked_integrate(inst, 1, s.q.data(), unit.data(), -e, unguarded(qm.data())).ok());
            const auto rqp = residual(qp, s.v), rqm = residual(qm, s.v);
            std::array<double, 6> vp = s.v, vm = s.v;
            vp[j] += e;
            vm[j] -= e;
            const auto rvp = residual(s.q, vp), rvm = residual(s.q, vm);
            for (int i = 0; i < 6; ++i) {
                EXPECT_NEAR(k[i + 6 * j], (rqp[i] - rqm[i]) / (2 * e), 1e-7) << mode << " stiffness " << i << "," << j;
                EXPECT_NEAR(d[i + 6 * j], (rvp[i] - rvm[i]) / (2 * e), 1e-7) << mode << " damping " << i << "," << j;
            }
        }
    }
}

TEST_F(RigidBody, EnergyIsKineticPlusGravitational) {
    PluginInstance inst = make();
    const auto items = body(2.0, {0.1, 0.2, 0.3}, {0, 0, 0});
    std::array<double, 7> q = {0, 0, 5, 1, 0, 0, 0};
    const std::array<double, 6> v = {1, 0, 0, 0, 0, 2};
    pivot_element_batch batch{1, 7, items.data(), q.data(), v.data(), q.data()};
    pivot_step_info step{sizeof(pivot_step_info), 0, 0.01, 0.0, {0, 0, -9.81}};
    double e[3];
    ASSERT_TRUE(checked_energy(inst, batch, step, unguarded(e)).ok());
    EXPECT_DOUBLE_EQ(e[0], 0.5 * 2 * 1 + 0.5 * 0.3 * 4);
    EXPECT_DOUBLE_EQ(e[1], 2 * 9.81 * 5);
    EXPECT_EQ(e[2], 0.0);
}

}  // namespace
}  // namespace pivot

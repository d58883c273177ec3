#include "pivot/conformance/problems.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "pivot/conformance/error.hpp"
#include "pivot/conformance/random.hpp"

namespace pivot::conformance {

namespace {

using Vec3 = std::array<double, 3>;

Vec3 cross(const Vec3& a, const Vec3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

Vec3 normalized(const Vec3& a) {
    const double r = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    return {a[0] / r, a[1] / r, a[2] / r};
}

size_t at(uint32_t i, uint32_t j, uint32_t n) { return i + static_cast<size_t>(j) * n; }

// A standard LCP around a column-major matrix, with its properties.
sdk::LcpData standard(uint32_t n, std::vector<double> a, std::vector<double> b, uint32_t properties) {
    sdk::LcpData p = sdk::LcpData::standard(n, std::move(a), std::move(b));
    p.matrix_properties = properties;
    return p;
}

std::vector<double> spd_matrix(uint32_t n, Random& random) {
    std::vector<double> g(static_cast<size_t>(n) * n);
    for (double& v : g) v = random.uniform(-1.0, 1.0);
    std::vector<double> a(static_cast<size_t>(n) * n, 0.0);
    for (uint32_t j = 0; j < n; ++j) {
        for (uint32_t i = j; i < n; ++i) {
            double s = 0.0;
            for (uint32_t k = 0; k < n; ++k) s += g[at(i, k, n)] * g[at(j, k, n)];
            s /= static_cast<double>(n);
            if (i == j) s += 0.1;
            // Written to both halves: exactly symmetric.
            a[at(i, j, n)] = s;
            a[at(j, i, n)] = s;
        }
    }
    return a;
}

// ------------------------------------------------------------ rigid bodies
struct Body {
    double inverse_mass = 0.0;
    std::array<double, 9> inverse_inertia{};  // world frame, row-major 3x3
    Vec3 center{};
    std::array<double, 6> twist{};  // (v, omega), world frame
};

Body random_body(Random& random) {
    Body body;
    const double mass = random.uniform(1.0, 10.0);
    body.inverse_mass = 1.0 / mass;
    // Principal moments of a box-like body, rotated by a random rotation R:
    // I^-1 (world) = R diag(1 / I_k) R^T.
    const std::array<double, 3> principal = {mass * random.uniform(0.05, 0.5), mass * random.uniform(0.05, 0.5),
                                             mass * random.uniform(0.05, 0.5)};
    const auto q = random.unit_quaternion();
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    const std::array<double, 9> r = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                                     2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                                     2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            double s = 0.0;
            for (int k = 0; k < 3; ++k) s += r[3 * i + k] * r[3 * j + k] / principal[k];
            body.inverse_inertia[3 * i + j] = s;
        }
    }
    // Symmetric to the last bit, whatever the rounding of the sum above.
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < i; ++j) body.inverse_inertia[3 * i + j] = body.inverse_inertia[3 * j + i];
    }
    for (auto& c : body.center) c = random.uniform(-2.0, 2.0);
    for (auto& v : body.twist) v = random.uniform(-1.0, 1.0);
    return body;
}

// One Jacobian row: the 6 entries for each of (up to) two bodies.
struct JacobianRow {
    int body[2] = {-1, -1};  // -1: the world (or nothing)
    std::array<double, 6> j[2]{};
};

// The row of a point constraint along direction d at point p between body a
// and body b (b may be -1, the world): J v = d . (v_a + w_a x (p - c_a)) -
// d . (v_b + w_b x (p - c_b)); the angular part is (p - c) x d.
JacobianRow point_row(const std::vector<Body>& bodies, int a, int b, const Vec3& p, const Vec3& d) {
    JacobianRow row;
    const int ids[2] = {a, b};
    for (int k = 0; k < 2; ++k) {
        if (ids[k] < 0) continue;
        const double sign = k == 0 ? 1.0 : -1.0;
        const Vec3 arm = sub(p, bodies[static_cast<size_t>(ids[k])].center);
        const Vec3 angular = cross(arm, d);
        row.body[k] = ids[k];
        row.j[k] = {sign * d[0], sign * d[1], sign * d[2], sign * angular[0], sign * angular[1], sign * angular[2]};
    }
    return row;
}

// J_r W J_s^T summed over the bodies both rows touch (W = diag(m^-1 I, I^-1)).
// Bitwise symmetric in (r, s) (IEEE + and * commute; each off-diagonal pair
// of the inertia is summed as one symmetric term), so that A is exactly
// symmetric and identical rows give identical entries.
double coupling(const std::vector<Body>& bodies, const JacobianRow& r, const JacobianRow& s) {
    double per_body[2] = {0.0, 0.0};
    int shared = 0;
    for (int a = 0; a < 2; ++a) {
        if (r.body[a] < 0) continue;
        for (int c = 0; c < 2; ++c) {
            if (s.body[c] != r.body[a]) continue;
            const Body& body = bodies[static_cast<size_t>(r.body[a])];
            const auto& u = r.j[a];
            const auto& v = s.j[c];
            double t = body.inverse_mass * (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]);
            for (size_t i = 0; i < 3; ++i) {
                t += body.inverse_inertia[3 * i + i] * (u[3 + i] * v[3 + i]);
                for (size_t j = i + 1; j < 3; ++j) {
                    t += body.inverse_inertia[3 * i + j] * (u[3 + i] * v[3 + j] + u[3 + j] * v[3 + i]);
                }
            }
            per_body[shared++] = t;
        }
    }
    return per_body[0] + per_body[1];
}

double velocity(const std::vector<Body>& bodies, const JacobianRow& r) {
    double s = 0.0;
    for (int k = 0; k < 2; ++k) {
        if (r.body[k] < 0) continue;
        const auto& twist = bodies[static_cast<size_t>(r.body[k])].twist;
        for (int i = 0; i < 6; ++i) s += r.j[k][static_cast<size_t>(i)] * twist[static_cast<size_t>(i)];
    }
    return s;
}

// Two unit tangents completing the normal to a right-handed frame.
void tangents(const Vec3& n, Vec3& t1, Vec3& t2) {
    // The axis least aligned with n gives a well-conditioned cross product.
    Vec3 axis{0, 0, 0};
    const double ax = std::abs(n[0]), ay = std::abs(n[1]), az = std::abs(n[2]);
    axis[ax <= ay && ax <= az ? 0 : (ay <= az ? 1 : 2)] = 1.0;
    t1 = normalized(cross(n, axis));
    t2 = cross(n, t1);
}

struct SceneRow {
    JacobianRow jacobian;
    double b = 0.0;
    double lo = 0.0;
    double hi = HUGE_VAL;
    int32_t findex = -1;
};

struct Contact {
    int a = 0;
    int b = -1;
    Vec3 point{};
    Vec3 normal{};
    double mu = 0.5;
    double bias = 0.0;
};

}  // namespace

// ---------------------------------------------------------------- P-matrices
sdk::LcpData random_spd_lcp(uint32_t n, uint64_t seed) {
    Random random(seed);
    std::vector<double> a = spd_matrix(n, random);
    std::vector<double> b(n);
    for (double& v : b) v = random.uniform(-1.0, 1.0);
    return standard(n, std::move(a), std::move(b),
                    PIVOT_MATRIX_SYMMETRIC | PIVOT_MATRIX_POSITIVE_SEMIDEFINITE | PIVOT_MATRIX_POSITIVE_DEFINITE);
}

sdk::LcpData random_diagonally_dominant_lcp(uint32_t n, uint64_t seed) {
    Random random(seed);
    std::vector<double> a(static_cast<size_t>(n) * n, 0.0);
    for (uint32_t i = 0; i < n; ++i) {
        double off = 0.0;
        for (uint32_t j = 0; j < n; ++j) {
            if (i == j) continue;
            a[at(i, j, n)] = random.uniform(-1.0, 1.0);
            off += std::abs(a[at(i, j, n)]);
        }
        a[at(i, i, n)] = off + random.uniform(0.5, 1.5);
    }
    std::vector<double> b(n);
    for (double& v : b) v = random.uniform(-1.0, 1.0);
    sdk::LcpData p = standard(n, std::move(a), std::move(b), 0);
    p.detect_symmetry();  // not symmetric (with probability 1): says so
    return p;
}

// ---------------------------------------------------------------- contacts
sdk::LcpData random_contact_problem(const ContactScene& scene) {
    if (scene.inconsistent_duplicate_joint && (scene.ball_joints == 0 || scene.regularization != 0.0)) {
        throw Error("random_contact_problem: an inconsistent duplicate joint needs a ball joint and no regularization");
    }
    Random random(scene.seed);
    const uint32_t body_count = scene.bodies > 0 ? std::max(scene.bodies, 2u) : scene.contacts / 4 + 2;
    std::vector<Body> bodies;
    for (uint32_t i = 0; i < body_count; ++i) bodies.push_back(random_body(random));

    std::vector<Contact> contacts;
    for (uint32_t k = 0; k < scene.contacts; ++k) {
        Contact c;
        c.a = static_cast<int>(random.index(body_count));
        // Half the contacts are with the world (ground), half between bodies.
        if (random.uniform() < 0.5) {
            c.b = -1;
        } else {
            c.b = static_cast<int>(random.index(body_count - 1));
            if (c.b >= c.a) ++c.b;
        }
        const Vec3& center = bodies[static_cast<size_t>(c.a)].center;
        for (int i = 0; i < 3; ++i) c.point[static_cast<size_t>(i)] = center[static_cast<size_t>(i)] + random.uniform(-0.5, 0.5);
        c.normal = random.unit_vector();
        c.mu = random.uniform(0.1, 1.0);
        // Baumgarte-like push-out of a small penetration: makes more
        // contacts active, as in a resting pile.
        c.bias = random.uniform(0.0, 0.05);
        if (!scene.penetration_bias) c.bias = 0.0;
        contacts.push_back(c);
    }
    for (uint32_t k = 0; k < scene.duplicated_contacts && k < scene.contacts; ++k) contacts.push_back(contacts[k]);

    std::vector<SceneRow> rows;
    for (const Contact& c : contacts) {
        SceneRow normal;
        normal.jacobian = point_row(bodies, c.a, c.b, c.point, c.normal);
        normal.b = velocity(bodies, normal.jacobian) - c.bias;
        const auto normal_row = static_cast<int32_t>(rows.size());
        rows.push_back(normal);
        if (!scene.friction) continue;
        Vec3 t1, t2;
        tangents(c.normal, t1, t2);
        for (const Vec3& t : {t1, t2}) {
            SceneRow row;
            row.jacobian = point_row(bodies, c.a, c.b, c.point, t);
            row.b = velocity(bodies, row.jacobian);
            row.lo = -c.mu;
            row.hi = c.mu;
            row.findex = normal_row;
            rows.push_back(row);
        }
    }
    const uint32_t joint_count = scene.ball_joints + (scene.inconsistent_duplicate_joint ? 1u : 0u);
    size_t first_joint_row = rows.size();
    for (uint32_t k = 0; k < scene.ball_joints; ++k) {
        const int a = static_cast<int>(random.index(body_count));
        int b = static_cast<int>(random.index(body_count - 1));
        if (b >= a) ++b;
        const Vec3& ca = bodies[static_cast<size_t>(a)].center;
        const Vec3& cb = bodies[static_cast<size_t>(b)].center;
        const Vec3 anchor = {(ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2, (ca[2] + cb[2]) / 2};
        for (const Vec3& axis : {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}}) {
            SceneRow row;
            row.jacobian = point_row(bodies, a, b, anchor, axis);
            row.b = velocity(bodies, row.jacobian);
            row.lo = -HUGE_VAL;
            row.hi = HUGE_VAL;
            rows.push_back(row);
        }
    }
    if (joint_count > scene.ball_joints) {
        for (size_t r = 0; r < 3; ++r) {
            SceneRow copy = rows[first_joint_row + r];
            if (r == 0) copy.b += 1.0;
            rows.push_back(copy);
        }
    }
    for (uint32_t k = 0; k < scene.motors; ++k) {
        SceneRow row;
        row.jacobian.body[0] = static_cast<int>(random.index(body_count));
        const Vec3 axis = random.unit_vector();
        row.jacobian.j[0] = {0, 0, 0, axis[0], axis[1], axis[2]};
        // Drives the angular velocity about `axis` toward a target speed.
        row.b = velocity(bodies, row.jacobian) - random.uniform(-1.0, 1.0);
        const double max_impulse = random.uniform(0.1, 1.0);
        row.lo = -max_impulse;
        row.hi = max_impulse;
        rows.push_back(row);
    }

    const auto n = static_cast<uint32_t>(rows.size());
    sdk::LcpData p;
    p.n = n;
    p.dense.assign(static_cast<size_t>(n) * n, 0.0);
    for (uint32_t j = 0; j < n; ++j) {
        for (uint32_t i = j; i < n; ++i) {
            const double v = coupling(bodies, rows[i].jacobian, rows[j].jacobian);
            p.dense[at(i, j, n)] = v;
            p.dense[at(j, i, n)] = v;
        }
    }
    if (scene.regularization > 0.0 && n > 0) {
        double mean = 0.0;
        for (uint32_t i = 0; i < n; ++i) mean += p.dense[at(i, i, n)];
        mean /= static_cast<double>(n);
        for (uint32_t i = 0; i < n; ++i) p.dense[at(i, i, n)] += scene.regularization * mean;
    }
    for (const SceneRow& r : rows) {
        p.b.push_back(r.b);
        p.lo.push_back(r.lo);
        p.hi.push_back(r.hi);
        p.findex.push_back(r.findex);
    }
    p.matrix_properties = PIVOT_MATRIX_SYMMETRIC | PIVOT_MATRIX_POSITIVE_SEMIDEFINITE;
    if (scene.regularization > 0.0) p.matrix_properties |= PIVOT_MATRIX_POSITIVE_DEFINITE;
    return p;
}

// ---------------------------------------------------------------- classics
sdk::LcpData murty_lcp(uint32_t n) {
    std::vector<double> a(static_cast<size_t>(n) * n, 0.0);
    for (uint32_t j = 0; j < n; ++j) {
        for (uint32_t i = 0; i < j; ++i) a[at(i, j, n)] = 2.0;
        a[at(j, j, n)] = 1.0;
    }
    return standard(n, std::move(a), std::vector<double>(n, -1.0), 0);
}

std::vector<double> murty_solution(uint32_t n) {
    std::vector<double> x(n, 0.0);
    if (n > 0) x[n - 1] = 1.0;
    return x;
}

sdk::LcpData chvatal_cycling_lcp() {
    // min c'x s.t. G x >= r, x >= 0, with the "<=" rows of the LP negated.
    const double g[3][4] = {{-0.5, 5.5, 2.5, -9.0}, {-0.5, 1.5, 0.5, -1.0}, {-1.0, 0.0, 0.0, 0.0}};
    const double c[4] = {-10.0, 57.0, 9.0, 24.0};
    const double r[3] = {0.0, 0.0, -1.0};
    const uint32_t n = 7;
    std::vector<double> a(static_cast<size_t>(n) * n, 0.0);
    for (uint32_t i = 0; i < 3; ++i) {
        for (uint32_t j = 0; j < 4; ++j) {
            a[at(4 + i, j, n)] = g[i][j];   // block A
            a[at(j, 4 + i, n)] = -g[i][j];  // block -A'
        }
    }
    std::vector<double> b = {c[0], c[1], c[2], c[3], -r[0], -r[1], -r[2]};
    return standard(n, std::move(a), std::move(b), PIVOT_MATRIX_POSITIVE_SEMIDEFINITE);
}

std::vector<double> chvatal_cycling_solution() { return {1, 0, 1, 0, 0, 18, 1}; }

// ---------------------------------------------------------------- degenerate
sdk::LcpData degenerate_zero_b_lcp(uint32_t n, uint64_t seed) {
    sdk::LcpData p = random_spd_lcp(n, seed);
    p.b.assign(n, 0.0);
    return p;
}

sdk::LcpData degenerate_constructed_lcp(uint32_t n, uint64_t seed, std::vector<double>* solution) {
    sdk::LcpData p = random_spd_lcp(n, seed);
    Random random(seed ^ 0x5eedu);
    std::vector<double> x(n, 0.0);
    std::vector<double> w(n, 0.0);
    for (uint32_t i = 0; i < n; ++i) {
        if (i % 3 == 0) x[i] = random.uniform(0.5, 1.5);
        if (i % 3 == 1) w[i] = random.uniform(0.5, 1.5);
    }
    for (uint32_t i = 0; i < n; ++i) {
        double ax = 0.0;
        for (uint32_t j = 0; j < n; ++j) ax += p.dense[at(i, j, n)] * x[j];
        p.b[i] = w[i] - ax;
    }
    if (solution != nullptr) *solution = x;
    return p;
}

// ---------------------------------------------------------------- no solution
sdk::LcpData infeasible_psd_lcp() {
    return standard(2, {1, -1, -1, 1}, {-1, -1}, PIVOT_MATRIX_SYMMETRIC | PIVOT_MATRIX_POSITIVE_SEMIDEFINITE);
}

sdk::LcpData infeasible_indefinite_lcp() { return standard(2, {-1, 0, 0, 1}, {-1, -1}, PIVOT_MATRIX_SYMMETRIC); }

sdk::LcpData infeasible_skew_lcp() {
    // Column-major: A(0,1) = 1, A(1,0) = -1.
    return standard(2, {0, -1, 1, 0}, {-1, -1}, PIVOT_MATRIX_POSITIVE_SEMIDEFINITE);
}

sdk::LcpData inconsistent_free_rows_problem() {
    sdk::LcpData p = sdk::LcpData::standard(2, {1, 1, 1, 1}, {1, -1});
    p.lo.assign(2, -HUGE_VAL);
    p.hi.assign(2, HUGE_VAL);
    p.matrix_properties = PIVOT_MATRIX_SYMMETRIC | PIVOT_MATRIX_POSITIVE_SEMIDEFINITE;
    return p;
}

}  // namespace pivot::conformance

#include "contact_problem_generator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace pivot::test {
namespace {

struct Vec3 {
    double x = 0.0;
    double y = 0.0;
    double z = 0.0;
};
Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
Vec3 normalized(Vec3 a) { return (1.0 / std::sqrt(dot(a, a))) * a; }

struct Body {
    Vec3 center;
    Vec3 half;                   // half extents of the box
    std::array<double, 6> inverse_mass{};  // diagonal of M^-1: 1/m (x3), 1/I (x3), world axes
    std::array<double, 6> velocity{};      // linear, angular
};

// One row's Jacobian on one body: 6 numbers (linear, angular).
struct BodyJacobian {
    int32_t row = 0;
    std::array<double, 6> j{};
};

struct Contact {
    int32_t body1 = -1;  // -1: the ground; body1 < body2
    int32_t body2 = -1;
    Vec3 point;
    Vec3 normal;  // from body 1 towards body 2
};

Body make_body(std::mt19937_64& rng, Vec3 cell) {
    Body b;
    b.half = {uniform(rng, 0.4, 0.5), uniform(rng, 0.4, 0.5), uniform(rng, 0.4, 0.5)};
    b.center = cell + Vec3{uniform(rng, -0.02, 0.02), uniform(rng, -0.02, 0.02), 0.0};
    const double mass = uniform(rng, 1.0, 10.0);
    const Vec3 s = 2.0 * b.half;
    const Vec3 inertia = (mass / 12.0) * Vec3{s.y * s.y + s.z * s.z, s.x * s.x + s.z * s.z, s.x * s.x + s.y * s.y};
    b.inverse_mass = {1.0 / mass, 1.0 / mass, 1.0 / mass, 1.0 / inertia.x, 1.0 / inertia.y, 1.0 / inertia.z};
    for (double& v : b.velocity) v = uniform(rng, -1.0, 1.0);
    return b;
}

Vec3 tilted(std::mt19937_64& rng, Vec3 axis) {
    return normalized(axis + Vec3{uniform(rng, -0.1, 0.1), uniform(rng, -0.1, 0.1), uniform(rng, -0.1, 0.1)});
}

// The row of direction d at point p: relative velocity of body 2 minus body 1,
// d . (v2 + w2 x r2 - v1 - w1 x r1), and d . (w x r) = w . (r x d).
std::array<double, 6> jacobian(Vec3 d, Vec3 r, double sign) {
    const Vec3 a = cross(r, d);
    return {sign * d.x, sign * d.y, sign * d.z, sign * a.x, sign * a.y, sign * a.z};
}

}  // namespace

LcpProblem make_contact_pile(const ContactPileSpec& spec) {
    std::mt19937_64 rng(spec.seed);
    const uint32_t columns = std::max<uint32_t>(1, spec.stack_columns);
    const double pitch = 1.0;  // grid spacing (boxes are at most 1 wide)

    // Bodies level by level; each brings its support contacts (4 corners on
    // the body below or the ground) and one side contact with each of its -x
    // and -y neighbours, until there are enough contacts.
    std::vector<Body> bodies;
    std::vector<Contact> contacts;
    while (contacts.size() < spec.contacts) {
        const auto k = static_cast<int32_t>(bodies.size());
        const uint32_t level = static_cast<uint32_t>(k) / (columns * columns);
        const uint32_t ix = static_cast<uint32_t>(k) % columns;
        const uint32_t iy = (static_cast<uint32_t>(k) / columns) % columns;
        const int32_t below = level == 0 ? -1 : k - static_cast<int32_t>(columns * columns);
        const double base = below < 0 ? 0.0 : bodies[below].center.z + bodies[below].half.z;
        Body b = make_body(rng, {ix * pitch, iy * pitch, 0.0});
        b.center.z = base + b.half.z;
        bodies.push_back(b);
        for (int corner = 0; corner < 4 && contacts.size() < spec.contacts; ++corner) {
            const double sx = (corner & 1) != 0 ? 0.8 : -0.8;
            const double sy = (corner & 2) != 0 ? 0.8 : -0.8;
            Contact c;
            c.body1 = below;
            c.body2 = k;
            c.point = Vec3{b.center.x + sx * b.half.x + uniform(rng, -0.05, 0.05),
                           b.center.y + sy * b.half.y + uniform(rng, -0.05, 0.05), base};
            c.normal = tilted(rng, {0.0, 0.0, 1.0});
            contacts.push_back(c);
        }
        const int32_t neighbours[2] = {ix > 0 ? k - 1 : -1, iy > 0 ? k - static_cast<int32_t>(columns) : -1};
        for (int side = 0; side < 2 && contacts.size() < spec.contacts; ++side) {
            if (neighbours[side] < 0) continue;
            const Body& other = bodies[neighbours[side]];
            Contact c;
            c.body1 = neighbours[side];
            c.body2 = k;
            c.point = 0.5 * (other.center + b.center) +
                      Vec3{0.0, 0.0, uniform(rng, -0.3, 0.3)} +
                      (side == 0 ? Vec3{0.0, uniform(rng, -0.3, 0.3), 0.0} : Vec3{uniform(rng, -0.3, 0.3), 0.0, 0.0});
            c.normal = tilted(rng, side == 0 ? Vec3{1.0, 0.0, 0.0} : Vec3{0.0, 1.0, 0.0});
            contacts.push_back(c);
        }
    }

    // Rows [normal, t1, t2] per contact (normal only without friction) and
    // their Jacobians, gathered per body in ascending body order.
    const uint32_t rows_per_contact = spec.friction ? 3 : 1;
    const auto n = static_cast<uint32_t>(contacts.size()) * rows_per_contact;
    std::vector<std::vector<BodyJacobian>> per_body(bodies.size());
    std::vector<std::array<int32_t, 2>> row_bodies(n, {-1, -1});
    LcpProblem p;
    p.n = n;
    p.b.assign(n, 0.0);
    p.lo.assign(n, 0.0);
    p.hi.assign(n, HUGE_VAL);
    p.findex.assign(n, -1);
    for (size_t ci = 0; ci < contacts.size(); ++ci) {
        const Contact& c = contacts[ci];
        const Vec3 t1 = normalized(cross(c.normal, std::abs(c.normal.x) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 1, 0}));
        const Vec3 t2 = cross(c.normal, t1);
        const Vec3 directions[3] = {c.normal, t1, t2};
        for (uint32_t d = 0; d < rows_per_contact; ++d) {
            const auto row = static_cast<int32_t>(ci * rows_per_contact + d);
            double jv = 0.0;
            int slot = 0;
            for (const int32_t body : {c.body1, c.body2}) {  // body1 < body2: ascending
                if (body < 0) continue;
                const Body& b = bodies[body];
                BodyJacobian bj;
                bj.row = row;
                bj.j = jacobian(directions[d], c.point - b.center, body == c.body2 ? 1.0 : -1.0);
                for (int e = 0; e < 6; ++e) jv += bj.j[e] * b.velocity[e];
                per_body[body].push_back(bj);
                row_bodies[row][slot++] = body;
            }
            p.b[row] = jv;
            if (d == 0) {
                p.b[row] -= uniform(rng, 0.0, 0.01);  // a small position-correction bias
            } else {
                p.findex[row] = static_cast<int32_t>(ci * rows_per_contact);
                p.lo[row] = -spec.mu;
                p.hi[row] = spec.mu;
            }
        }
    }
    if (!spec.friction) p.findex.clear();

    // A = J M^-1 J^T column by column: column c gathers, over the bodies of
    // row c (ascending), M^-1-weighted products with every row on that body.
    // Entry (r, c) and (c, r) are the same sums in the same order, so A is
    // exactly symmetric.
    std::vector<double> accumulator(n, 0.0);
    std::vector<int32_t> marker(n, -1);
    std::vector<int32_t> pattern;
    p.col_start.assign(n + 1, 0);
    for (uint32_t col = 0; col < n; ++col) {
        pattern.clear();
        for (const int32_t body : row_bodies[col]) {
            if (body < 0) continue;
            const std::array<double, 6>* jc = nullptr;
            for (const BodyJacobian& bj : per_body[body]) {
                if (bj.row == static_cast<int32_t>(col)) jc = &bj.j;
            }
            const std::array<double, 6>& m = bodies[body].inverse_mass;
            for (const BodyJacobian& bj : per_body[body]) {
                double value = 0.0;
                for (int e = 0; e < 6; ++e) value += m[e] * (bj.j[e] * (*jc)[e]);
                if (marker[bj.row] != static_cast<int32_t>(col)) {
                    marker[bj.row] = static_cast<int32_t>(col);
                    accumulator[bj.row] = value;
                    pattern.push_back(bj.row);
                } else {
                    accumulator[bj.row] += value;
                }
            }
        }
        std::sort(pattern.begin(), pattern.end());
        for (const int32_t r : pattern) {
            p.row_index.push_back(r);
            p.values.push_back(accumulator[r]);
        }
        p.col_start[col + 1] = static_cast<int32_t>(p.values.size());
    }
    // + eps I, eps = regularization x mean diagonal.
    double trace = 0.0;
    std::vector<size_t> diagonal(n);
    for (uint32_t col = 0; col < n; ++col) {
        for (int32_t k = p.col_start[col]; k < p.col_start[col + 1]; ++k) {
            if (p.row_index[k] == static_cast<int32_t>(col)) diagonal[col] = static_cast<size_t>(k);
        }
        trace += p.values[diagonal[col]];
    }
    const double eps = spec.regularization * trace / n;
    for (uint32_t col = 0; col < n; ++col) p.values[diagonal[col]] += eps;
    p.matrix_properties = PIVOT_MATRIX_SYMMETRIC;
    return p;
}

}  // namespace pivot::test

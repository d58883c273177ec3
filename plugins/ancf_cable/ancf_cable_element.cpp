// pivot.element.ancf_cable: the 3D gradient-deficient ANCF cable element
// (seed000 sections 2.6-2.7 with errata E8, E9, E10, E12), written against the
// public ABI only (<pivot/plugin_element.h>).
//
// Two nodes, 6 coordinates each: q = [r1, r_x1, r2, r_x2] (position and
// position gradient d r / d x at the element's ends), v = q-dot. Material
// coordinate x in [0, L], xi = x / L, L the per-item parameter `length`.
//
//   r(x) = S(x) q,  S = [S1 I3, S2 I3, S3 I3, S4 I3]            (Eq. 2.26)
//   S1 = 1 - 3 xi^2 + 2 xi^3         S1_x = 6 (xi^2 - xi) / L      S1_xx = (12 xi - 6) / L^2
//   S2 = L (xi - 2 xi^2 + xi^3)      S2_x = 1 - 4 xi + 3 xi^2      S2_xx = (6 xi - 4) / L
//   S3 = 3 xi^2 - 2 xi^3             S3_x = 6 (xi - xi^2) / L      S3_xx = (6 - 12 xi) / L^2
//   S4 = L (xi^3 - xi^2)             S4_x = 3 xi^2 - 2 xi          S4_xx = (6 xi - 2) / L
//
// Mass (constant, B.23 with E12): M = rho A L (Mhat kron I3), node-major
// ordering. Gravity: Q_g = int rho A S^T g dx = rho A L [g/2, L g/12, g/2, -L g/12].
// A = pi r^2, I = pi r^4 / 4 (circular section).
//
// Elasticity is not a force: at each Gauss point x_i (weight w_i on [0, L],
// the weights sum to L) the element returns 4 compliant rows (section 2.7,
// J = +d phi / d q per E9, energy 1/2 sum phi^2 / c per E8 / B.26):
//   axial    phi = (r_x.r_x - 1) / 2          J = r_x^T S_x            c = 1 / (E A w_i)
//   bending  phi = (r_x x r_xx) / |r_x|^3     (3 rows, the VECTOR curvature, E10)
//            J = (skew(r_x) S_xx - skew(r_xx) S_x) / |r_x|^3
//                - 3 (r_x x r_xx) (r_x^T S_x) / |r_x|^5                c = 1 / (E I w_i)
// The vector curvature has the same energy as the scalar |kappa| of Eq. 2.29,
// but is smooth at a straight cable, where d|kappa|/dq (Eq. 5.5) divides by 0.
// Kelvin-Voigt damping with time constant tau (s): row damping d = tau / c,
// so the host's law c lambda = -phi - d J v is lambda = -(phi + tau phi-dot)/c.
// The accuracy integrators (GSSSS, ABI 1.10) take the same strains as
// forces instead: smooth_forces f = Q_g - sum k (phi + tau J v) J^T, k = 1/c,
// and force_tangent its exact derivative through the strains' Hessians.
// Row flags are 0: a strain is not a joint position error (the flag
// PIVOT_ROW_POSITION_ERROR would put curvatures into the joint error report),
// and the rows are stabilized (their violation IS the elastic force).
//
// The stress-free reference state is STRAIGHT with UNIT gradients: phi = 0
// there. batch.q_reference must be such a state (r_x1 = r_x2 = unit t,
// r2 - r1 = L t, to 1e-6); mass_matrix and internal_rows return PIVOT_ERROR
// otherwise. A pre-curved reference would need phi = kappa - kappa_0.
//
// Material frames at (s, 0, 0), s in [0, 1] (x = s L): origin r(x), x axis
// t = r_x / |r_x|. The cable has no torsion, so the rotation about t is a
// convention: R = R_min(t0 -> t) R_min(e_x -> t0), R_min(a -> b) the
// minimal rotation (about a x b) and t0 the reference tangent: smooth unless
// t turns by 180 degrees from t0 (then a fixed half-turn is used). The twist
// is (S v, t x t-dot), t x t-dot = skew(t) S_x v / |r_x| (no spin about the
// tangent), Jacobian [S; skew(t) S_x / |r_x|]. Cross-section offsets (y, z)
// other than 0 are refused (PIVOT_ERROR): without a torsion coordinate
// their velocity is not defined.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include <pivot/plugin_element.h>

namespace pivot::ancf {
namespace {

constexpr uint32_t kNodes = 2;
constexpr uint32_t kCoordsPerNode = 6;
constexpr uint32_t kNv = 12;  // velocities per element
constexpr int kMaxGauss = 10;
constexpr int kMinGauss = 2;
constexpr uint32_t kRowsPerPoint = 4;
constexpr double kPi = 3.14159265358979323846;
constexpr double kReferenceTolerance = 1e-6;
constexpr double kMinGradient = 1e-8;  // |r_x| below this: a collapsed element
constexpr const char* kId = "pivot.element.ancf_cable";

struct V3 {
    double x, y, z;
    double operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
};
V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V3 operator*(double s, V3 a) { return {s * a.x, s * a.y, s * a.z}; }
double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V3 cross(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double norm(V3 a) { return std::sqrt(dot(a, a)); }
V3 load3(const double* p) { return {p[0], p[1], p[2]}; }
void store3(V3 a, double* p) { p[0] = a.x, p[1] = a.y, p[2] = a.z; }
// skew(u)[k][j]: (u x w)_k = sum_j skew(u)[k][j] w_j.
double skew(V3 u, int k, int j) {
    static const int kTable[3][3] = {{0, -3, 2}, {3, 0, -1}, {-2, 1, 0}};  // +-(index+1)
    const int e = kTable[k][j];
    if (e == 0) return 0.0;
    const double c = u[(e > 0 ? e : -e) - 1];
    return e > 0 ? c : -c;
}

struct Quat {
    double w, x, y, z;
};
Quat mul(Quat a, Quat b) {
    return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
Quat normalized(Quat q) {
    const double n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    return {q.w / n, q.x / n, q.y / n, q.z / n};
}
// The minimal rotation taking unit a to unit b (about a x b). When b = -a the
// axis is undefined: a half-turn about a fixed axis normal to a is used.
Quat minimal_rotation(V3 a, V3 b) {
    const V3 axis = cross(a, b);
    const Quat q{1.0 + dot(a, b), axis.x, axis.y, axis.z};
    const double n = std::sqrt(q.w * q.w + dot(axis, axis));
    if (n > 1e-9) return {q.w / n, q.x / n, q.y / n, q.z / n};
    // The coordinate axis least aligned with a, made normal to a.
    const V3 e = std::abs(a.x) <= std::abs(a.y) && std::abs(a.x) <= std::abs(a.z)
                     ? V3{1, 0, 0}
                     : (std::abs(a.y) <= std::abs(a.z) ? V3{0, 1, 0} : V3{0, 0, 1});
    V3 u = cross(a, e);
    u = (1.0 / norm(u)) * u;
    return {0.0, u.x, u.y, u.z};
}

// Shape functions and their x-derivatives at xi = x / L.
struct Shape {
    double s[4], sx[4], sxx[4];
};
Shape shape(double xi, double L) {
    const double xi2 = xi * xi, xi3 = xi2 * xi;
    Shape f{};
    f.s[0] = 1.0 - 3.0 * xi2 + 2.0 * xi3;
    f.s[1] = L * (xi - 2.0 * xi2 + xi3);
    f.s[2] = 3.0 * xi2 - 2.0 * xi3;
    f.s[3] = L * (xi3 - xi2);
    f.sx[0] = 6.0 * (xi2 - xi) / L;
    f.sx[1] = 1.0 - 4.0 * xi + 3.0 * xi2;
    f.sx[2] = 6.0 * (xi - xi2) / L;
    f.sx[3] = 3.0 * xi2 - 2.0 * xi;
    f.sxx[0] = (12.0 * xi - 6.0) / (L * L);
    f.sxx[1] = (6.0 * xi - 4.0) / L;
    f.sxx[2] = (6.0 - 12.0 * xi) / (L * L);
    f.sxx[3] = (6.0 * xi - 2.0) / L;
    return f;
}
// sum_a c[a] q_a, q_a the a-th 3-block of the 12 element coordinates.
V3 combine(const double* q, const double c[4]) {
    V3 r{0, 0, 0};
    for (int a = 0; a < 4; ++a) r = r + c[a] * load3(q + 3 * a);
    return r;
}

struct Instance {
    const pivot_host* host;
    double radius, density, youngs, tau;
    double geometric;  // scale of the geometric stiffness, [0, 1]; negative: automatic
    int gauss;
    double area, inertia;      // A = pi r^2, I = pi r^4 / 4
    double xg[kMaxGauss];      // Gauss-Legendre points on [0, 1], ascending
    double wg[kMaxGauss];      // weights on [0, 1] (sum 1)
};

void log_error(const Instance* inst, const char* message) {
    if (inst->host != nullptr && inst->host->log != nullptr) {
        inst->host->log(inst->host->context, PIVOT_LOG_ERROR, kId, message);
    }
}

// Gauss-Legendre rule with n points on [-1, 1] by Newton's method on P_n,
// mapped to [0, 1]: x = (1 + z) / 2, w = w[-1,1] / 2.
void gauss_legendre(int n, double* x01, double* w01) {
    // P_n(z) by the three-term recurrence, and P_n'(z).
    auto legendre = [n](double z, double& derivative) {
        double p0 = 1.0, p1 = z;
        for (int k = 2; k <= n; ++k) {
            const double p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
            p0 = p1;
            p1 = p2;
        }
        derivative = n * (z * p1 - p0) / (z * z - 1.0);
        return p1;
    };
    for (int i = 0; i < n; ++i) {
        double z = std::cos(kPi * (i + 0.75) / (n + 0.5));  // root i (descending)
        double dp = 1.0;
        for (int iteration = 0; iteration < 100; ++iteration) {
            const double dz = legendre(z, dp) / dp;
            z -= dz;
            if (std::abs(dz) <= 1e-16) break;
        }
        legendre(z, dp);
        x01[i] = 0.5 * (1.0 - z);  // ascending in i
        w01[i] = 1.0 / ((1.0 - z * z) * dp * dp);  // (2 / ((1 - z^2) P_n'^2)) / 2
    }
}

bool configure(Instance* inst, const double* params, uint32_t count) {
    if (count != 6) return false;
    inst->radius = params[0];
    inst->density = params[1];
    inst->youngs = params[2];
    inst->gauss = static_cast<int>(params[3]);
    inst->tau = params[4];
    inst->geometric = params[5];
    if (inst->gauss < kMinGauss || inst->gauss > kMaxGauss) return false;
    inst->area = kPi * inst->radius * inst->radius;
    inst->inertia = 0.25 * kPi * inst->radius * inst->radius * inst->radius * inst->radius;
    gauss_legendre(inst->gauss, inst->xg, inst->wg);
    return true;
}

double length_of(const pivot_element_batch* batch, uint32_t e) {
    return batch->item_params[static_cast<size_t>(e) * batch->item_param_stride];
}
const double* q_of(const double* q, uint32_t e) { return q + static_cast<size_t>(e) * kNv; }

bool items_present(const Instance* inst, const pivot_element_batch* batch) {
    if (batch->count > 0 && (batch->item_params == nullptr || batch->item_param_stride < 1)) {
        log_error(inst, "the per-item parameter 'length' is missing from the batch");
        return false;
    }
    return true;
}

// The reference must be straight with unit gradients and r2 - r1 = L t.
bool references_ok(const Instance* inst, const pivot_element_batch* batch) {
    if (!items_present(inst, batch)) return false;
    if (batch->count > 0 && batch->q_reference == nullptr) {
        log_error(inst, "q_reference is missing");
        return false;
    }
    for (uint32_t e = 0; e < batch->count; ++e) {
        const double L = length_of(batch, e);
        const double* q = q_of(batch->q_reference, e);
        const V3 t1 = load3(q + 3), t2 = load3(q + 9);
        const V3 chord = load3(q + 6) - load3(q);
        if (!(std::abs(norm(t1) - 1.0) <= kReferenceTolerance && norm(t2 - t1) <= kReferenceTolerance &&
              norm(chord - L * t1) <= kReferenceTolerance * L)) {
            log_error(inst, "the reference configuration of an element is not straight with unit gradients and "
                            "node distance equal to its length (the stress-free state must be so)");
            return false;
        }
    }
    return true;
}

// M-hat of B.23 (with E12): the mass matrix per unit rho A L of one
// coordinate direction, over the shape functions S1..S4.
void mass_hat(double L, double hat[4][4]) {
    const double values[4][4] = {{13.0 / 35.0, 11.0 * L / 210.0, 9.0 / 70.0, -13.0 * L / 420.0},
                                 {11.0 * L / 210.0, L * L / 105.0, 13.0 * L / 420.0, -L * L / 140.0},
                                 {9.0 / 70.0, 13.0 * L / 420.0, 13.0 / 35.0, -11.0 * L / 210.0},
                                 {-13.0 * L / 420.0, -L * L / 140.0, -11.0 * L / 210.0, L * L / 105.0}};
    std::memcpy(hat, values, sizeof(values));
}

pivot_status mass_matrix(const void* instance, const pivot_element_batch* batch, double* mass) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!references_ok(inst, batch)) return PIVOT_ERROR;
    for (uint32_t e = 0; e < batch->count; ++e) {
        const double L = length_of(batch, e);
        const double m = inst->density * inst->area * L;
        double hat[4][4];
        mass_hat(L, hat);
        double* out = mass + static_cast<size_t>(e) * kNv * kNv;
        std::memset(out, 0, sizeof(double) * kNv * kNv);
        // Mhat kron I3 (E12): entry (3a + i, 3b + i) = Mhat[a][b].
        for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b)
                for (int i = 0; i < 3; ++i) out[(3 * a + i) + kNv * (3 * b + i)] = m * hat[a][b];
    }
    return PIVOT_OK;
}

// Q_g = rho A L [g/2, (L/12) g, g/2, -(L/12) g].
void gravity_force(const Instance* inst, double L, V3 g, double* f) {
    const double m = inst->density * inst->area * L;
    store3(0.5 * m * g, f);
    store3((m * L / 12.0) * g, f + 3);
    store3(0.5 * m * g, f + 6);
    store3((-m * L / 12.0) * g, f + 9);
}

pivot_status generalized_forces(const void* instance, const pivot_element_batch* batch,
                                 const pivot_step_info* step, double* forces) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!items_present(inst, batch)) return PIVOT_ERROR;
    const V3 g = load3(step->gravity);
    for (uint32_t e = 0; e < batch->count; ++e) {
        gravity_force(inst, length_of(batch, e), g, forces + static_cast<size_t>(e) * kNv);
    }
    return PIVOT_OK;
}

uint32_t max_internal_rows(const void* instance) {
    return kRowsPerPoint * static_cast<uint32_t>(static_cast<const Instance*>(instance)->gauss);
}

// Strains at one Gauss point.
struct Strain {
    V3 rx, rxx, c;  // r_x, r_xx, r_x x r_xx
    double n;       // |r_x|
    double axial;   // (r_x.r_x - 1) / 2
    V3 kappa;       // c / |r_x|^3
};
bool strain_at(const double* q, const Shape& f, Strain& out) {
    out.rx = combine(q, f.sx);
    out.rxx = combine(q, f.sxx);
    const double n2 = dot(out.rx, out.rx);
    out.n = std::sqrt(n2);
    if (!(out.n > kMinGradient)) return false;
    out.c = cross(out.rx, out.rxx);
    out.axial = 0.5 * (n2 - 1.0);
    out.kappa = (1.0 / (n2 * out.n)) * out.c;
    return true;
}

// The Jacobians of the 4 strains at a point (the rows of internal_rows and
// the forces of smooth_forces), row r at jac + 12 r:
//   axial    J = r_x^T S_x
//   bending  J = (skew(r_x) S_xx - skew(r_xx) S_x) / |r_x|^3 - 3 (r_x x r_xx) (r_x^T S_x) / |r_x|^5
void strain_jacobians(const Strain& s, const Shape& f, double* jac) {
    const double inv3 = 1.0 / (s.n * s.n * s.n), inv5 = inv3 / (s.n * s.n);
    for (int a = 0; a < 4; ++a)
        for (int j = 0; j < 3; ++j) {
            jac[3 * a + j] = s.rx[j] * f.sx[a];
            for (int k = 0; k < 3; ++k) {
                jac[kNv * (1 + k) + 3 * a + j] =
                    (skew(s.rx, k, j) * f.sxx[a] - skew(s.rxx, k, j) * f.sx[a]) * inv3 -
                    3.0 * s.c[k] * s.rx[j] * f.sx[a] * inv5;
            }
        }
}

// The Hessian d^2 phi / dq^2 of strain `row` (0 axial, 1 + k curvature k)
// at a point, 12 x 12 symmetric, into hessian[i][j]. phi depends on q
// through A = r_x = S_x q and B = r_xx = S_xx q only, so
//     H = S_x^T H_AA S_x + S_x^T H_AB S_xx + S_xx^T H_AB^T S_x
// (kron I3 blocks), with, for the axial strain (A.A - 1) / 2, H_AA = I,
// H_AB = 0, and for kappa_k = c_k g, c = A x B, g = |A|^-3:
//     H_AA = c_k (-3 |A|^-5 I + 15 |A|^-7 A A^T) + dc_k/dA grad g^T + grad g dc_k/dA^T
//     H_AB = g E_k + grad g dc_k/dB^T,   grad g = -3 |A|^-5 A,  (E_k)_ij = eps_kij
// with dc_k/dA_i = eps_kij B_j and dc_k/dB_j = eps_kij A_i (H_BB = 0: c is
// linear in B).
void strain_hessian(const Strain& s, const Shape& f, int row, double hessian[kNv][kNv]) {
    double haa[3][3] = {}, hab[3][3] = {};
    if (row == 0) {
        for (int i = 0; i < 3; ++i) haa[i][i] = 1.0;
    } else {
        const int k = row - 1;
        const double n2 = s.n * s.n, inv3 = 1.0 / (n2 * s.n), inv5 = inv3 / n2, inv7 = inv5 / n2;
        double dca[3], dcb[3], dg[3];
        for (int i = 0; i < 3; ++i) {
            dca[i] = -skew(s.rxx, k, i);  // eps_kij B_j = -(B x .)_k
            dcb[i] = skew(s.rx, k, i);    // eps_kij A_i = (A x .)_k
            dg[i] = -3.0 * inv5 * s.rx[i];
        }
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                haa[i][j] = s.c[k] * ((i == j ? -3.0 * inv5 : 0.0) + 15.0 * inv7 * s.rx[i] * s.rx[j]) +
                            dca[i] * dg[j] + dg[i] * dca[j];
                // eps_kij: +1 for (i, j) = (k + 1, k + 2) mod 3, -1 for the swap, 0 otherwise.
                const int next = (k + 1) % 3, last = (k + 2) % 3;
                const double eps = i == next && j == last ? 1.0 : (i == last && j == next ? -1.0 : 0.0);
                hab[i][j] = inv3 * eps + dg[i] * dcb[j];
            }
    }
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) {
                    hessian[3 * a + i][3 * b + j] = f.sx[a] * f.sx[b] * haa[i][j] + f.sx[a] * f.sxx[b] * hab[i][j] +
                                                    f.sxx[a] * f.sx[b] * hab[j][i];
                }
}

pivot_status internal_rows(const void* instance, const pivot_element_batch* batch, const pivot_step_info* step,
                           pivot_row* rows, double* jacobians, uint32_t* row_counts) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!references_ok(inst, batch)) return PIVOT_ERROR;
    const uint32_t max_rows = max_internal_rows(instance);
    const double ea = inst->youngs * inst->area, ei = inst->youngs * inst->inertia;
    for (uint32_t e = 0; e < batch->count; ++e) {
        const double L = length_of(batch, e);
        const double* q = q_of(batch->q, e);
        pivot_row* row = rows + static_cast<size_t>(e) * max_rows;
        double* jac = jacobians + static_cast<size_t>(e) * max_rows * kNv;
        for (int i = 0; i < inst->gauss; ++i) {
            const Shape f = shape(inst->xg[i], L);
            const double w = inst->wg[i] * L;
            Strain s{};
            if (!strain_at(q, f, s)) {
                log_error(inst, "an element's position gradient vanishes (|r_x| < 1e-8): it has collapsed");
                return PIVOT_ERROR;
            }
            // Axial row: phi = (r_x.r_x - 1)/2, J = r_x^T S_x. The host's
            // law linearizes phi(q+) = phi + h J v+; phi is quadratic in q,
            // so the exact expansion has one more term, (h^2/2) |r_x-dot|^2
            // (d^2 phi / dq^2 = S_x^T S_x): the stretch a rotating element
            // would get from q+ = q + h v+. It is added, with r_x-dot at the
            // step's start (an O(h^3) error), to the row's violation. Left
            // out, each step stretches a swinging cable by (h omega)^2 / 2
            // and the next pulls it back, pumping energy into the stiff
            // axial mode: a 10 m steel pendulum (E = 2e11, 16 elements) at
            // h = 0.06 gained 7x its energy in 8 s; with it the energy stays
            // within 7 % of m g L / 2 (and within 0.5 % at h = 0.01). The
            // remaining O(h^3) error still stores energy as spurious stretch
            // at the largest steps (up to 76 % with 5 elements at h = 0.1,
            // bounded; tests/cable/cable_validation_test.cpp). Evaluating J
            // at the predicted midpoint instead stopped the gain in 3 of the
            // 4 B11 runs but damped the swing (13 % in 10 s at h = 0.01):
            // not chosen.
            const double ca = 1.0 / (ea * w);
            const V3 rx_rate = combine(q_of(batch->v, e), f.sx);
            const double predicted = s.axial + 0.5 * step->timestep * step->timestep * dot(rx_rate, rx_rate);
            *row++ = pivot_row{predicted, 0.0, ca, inst->tau * ea * w, -HUGE_VAL, HUGE_VAL, -1, 0u};
            // Bending rows: the vector curvature.
            const double cb = 1.0 / (ei * w);
            for (int k = 0; k < 3; ++k) {
                *row++ = pivot_row{s.kappa[k], 0.0, cb, inst->tau * ei * w, -HUGE_VAL, HUGE_VAL, -1, 0u};
            }
            strain_jacobians(s, f, jac);
            jac += kRowsPerPoint * kNv;
        }
        row_counts[e] = max_rows;
    }
    return PIVOT_OK;
}

pivot_status integrate(const void*, uint32_t node_count, const double* q, const double* v, double h,
                       double* q_out) {
    const size_t n = static_cast<size_t>(node_count) * kCoordsPerNode;
    for (size_t k = 0; k < n; ++k) q_out[k] = q[k] + h * v[k];
    return PIVOT_OK;
}

pivot_status material_frames(const void* instance, const pivot_element_batch* batch,
                             const pivot_material_point* points, uint32_t point_count, double* poses, double* twists,
                             double* jacobians) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!items_present(inst, batch)) return PIVOT_ERROR;
    const V3 ex{1, 0, 0};
    for (uint32_t p = 0; p < point_count; ++p) {
        const pivot_material_point& point = points[p];
        const double sm = point.local[0];
        if (point.element >= batch->count || !(sm >= 0.0 && sm <= 1.0)) {
            log_error(inst, "a material point is outside the batch or s is outside [0, 1]");
            return PIVOT_ERROR;
        }
        if (point.local[1] != 0.0 || point.local[2] != 0.0) {
            log_error(inst, "a cable material point has a cross-section offset (y, z): the cable has no torsion, "
                            "attach at (s, 0, 0)");
            return PIVOT_ERROR;
        }
        const uint32_t e = point.element;
        const double L = length_of(batch, e);
        const double* q = q_of(batch->q, e);
        const double* v = q_of(batch->v, e);
        const Shape f = shape(sm, L);
        const V3 rx = combine(q, f.sx);
        const double n = norm(rx);
        if (!(n > kMinGradient)) {
            log_error(inst, "an element's position gradient vanishes (|r_x| < 1e-8): it has collapsed");
            return PIVOT_ERROR;
        }
        const V3 t = (1.0 / n) * rx;
        // Reference tangent (straight reference: the same all along it).
        V3 t0 = ex;
        if (batch->q_reference != nullptr) {
            const V3 g0 = load3(q_of(batch->q_reference, e) + 3);
            const double n0 = norm(g0);
            if (n0 > kMinGradient) t0 = (1.0 / n0) * g0;
        }
        const Quat o = normalized(mul(minimal_rotation(t0, t), minimal_rotation(ex, t0)));
        double* pose = poses + 7 * static_cast<size_t>(p);
        store3(combine(q, f.s), pose);
        pose[3] = o.w, pose[4] = o.x, pose[5] = o.y, pose[6] = o.z;
        double* twist = twists + 6 * static_cast<size_t>(p);
        store3(combine(v, f.s), twist);
        store3((1.0 / n) * cross(t, combine(v, f.sx)), twist + 3);
        // J = [S; skew(t) S_x / |r_x|], 6 x 12 column-major.
        double* j = jacobians + static_cast<size_t>(6) * kNv * p;
        std::memset(j, 0, sizeof(double) * 6 * kNv);
        for (int a = 0; a < 4; ++a)
            for (int c = 0; c < 3; ++c) {
                double* column = j + 6 * (3 * a + c);
                column[c] = f.s[a];
                for (int k = 0; k < 3; ++k) column[3 + k] = skew(t, k, c) * f.sx[a] / n;
            }
    }
    return PIVOT_OK;
}

pivot_status energy(const void* instance, const pivot_element_batch* batch, const pivot_step_info* step,
                    double* kinetic, double* gravitational, double* elastic) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!items_present(inst, batch)) return PIVOT_ERROR;
    const V3 g = load3(step->gravity);
    const double ea = inst->youngs * inst->area, ei = inst->youngs * inst->inertia;
    double t = 0.0, u = 0.0, w_el = 0.0;
    for (uint32_t e = 0; e < batch->count; ++e) {
        const double L = length_of(batch, e);
        const double* q = q_of(batch->q, e);
        const double* v = q_of(batch->v, e);
        const double m = inst->density * inst->area * L;
        // 1/2 v^T M v with M = m (Mhat kron I3): per component, 1/2 m u^T Mhat u.
        double hat[4][4];
        mass_hat(L, hat);
        for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b) t += 0.5 * m * hat[a][b] * dot(load3(v + 3 * a), load3(v + 3 * b));
        // -int rho A g.r dx = -Q_g^T q (exact: Q_g = int rho A S^T g dx).
        double qg[kNv];
        gravity_force(inst, L, g, qg);
        for (uint32_t k = 0; k < kNv; ++k) u -= qg[k] * q[k];
        // 1/2 sum_i w_i (E A eps_i^2 + E I |kappa_i|^2) = 1/2 sum_rows phi^2 / c.
        for (int i = 0; i < inst->gauss; ++i) {
            Strain s{};
            if (!strain_at(q, shape(inst->xg[i], L), s)) {
                log_error(inst, "an element's position gradient vanishes (|r_x| < 1e-8): it has collapsed");
                return PIVOT_ERROR;
            }
            w_el += 0.5 * inst->wg[i] * L * (ea * s.axial * s.axial + ei * dot(s.kappa, s.kappa));
        }
    }
    *kinetic = t;
    *gravitational = u;
    *elastic = w_el;
    return PIVOT_OK;
}

// A node at rest on a straight, unstretched cable: r = position, r_x = the
// pose's x axis (unit: no strain).
pivot_status node_coordinates(const void*, const double pose[7], double* q_node) {
    const double w = pose[3], x = pose[4], y = pose[5], z = pose[6];
    const double n = std::sqrt(w * w + x * x + y * y + z * z);
    if (!(n > 0.0) || !std::isfinite(n)) return PIVOT_ERROR;
    const double a = w / n, b = x / n, c = y / n, d = z / n;
    q_node[0] = pose[0], q_node[1] = pose[1], q_node[2] = pose[2];
    q_node[3] = 1.0 - 2.0 * (c * c + d * d);  // first column of R(q)
    q_node[4] = 2.0 * (b * c + a * d);
    q_node[5] = 2.0 * (b * d - a * c);
    return PIVOT_OK;
}

// Geometric stiffness of the axial rows: with lambda_i = -phi_i / c_i the
// force J^T lambda turns with r_x; d^2 phi / dq^2 = S_x^T S_x (kron I3) for
// phi = (r_x.r_x - 1)/2, so K = sum_i E A w_i max(eps_i, 0) S_x^T S_x
// (tension only: compression would make the matrix indefinite). The bending
// rows' part is left out (bending moments of a cable are small next to its
// tension where K matters).
// Automatic scale (geometric_stiffness < 0, the default): K is needed where
// the step cannot resolve a sideways wave on the cable. A wave of
// wavenumber k on a string of tension T and bending stiffness E I has
// rho A omega^2 = T k^2 + E I k^4; with the tension's force taken at the
// step's start (explicit) and the bending rows at its end (implicit), the
// step grows it unless h^2 T k^2 / (rho A) - h^2 E I k^4 / (rho A) < 4
// (symplectic Euler's bound h^2 omega^2 < 4, less what the implicit part
// holds). Over the waves an element can carry (k <= pi / L) that is
// largest at k^2 = T / (2 E I) or at k = pi / L; with T = E A eps at the
// element's largest strain, scale = clamp((Omega_max^2 - 2) / 2, 0, 1):
// none below half the bound, all of K from the bound on. Measured
// (tests/cable/thin_wire_test.cpp: a sweep of 4 to 20 mm wires, 8 to 48
// elements, 50 to 5000 kg, 60 and 30 Hz, all bounded): a 12 mm wire of 16
// elements swinging 500 kg at 60 Hz has Omega_max^2 = 9.2 and needs it; a
// short stiff wire (scenes/cable_crane.json, 5 cm elements, h = 10 ms) has
// 0.4 and gets none. (A bound from the element's own zigzag mode alone
// misjudged fine cables: their unstable waves span several elements.)
pivot_status internal_stiffness(const void* instance, const pivot_element_batch* batch, const pivot_step_info* step,
                                double* stiffness) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!items_present(inst, batch)) return PIVOT_ERROR;
    const double ea = inst->youngs * inst->area;
    const double rho_a = inst->density * inst->area, ei = inst->youngs * inst->inertia;
    const double h2 = step != nullptr ? step->timestep * step->timestep : 0.0;
    for (uint32_t e = 0; e < batch->count; ++e) {
        const double L = length_of(batch, e);
        const double* q = q_of(batch->q, e);
        double* out = stiffness + static_cast<size_t>(e) * kNv * kNv;
        std::memset(out, 0, sizeof(double) * kNv * kNv);
        // The axial strain at each Gauss point, once: the automatic scale
        // reads the largest, K each one's tension.
        Shape f[kMaxGauss];
        double strain[kMaxGauss];
        double largest = 0.0;
        for (int i = 0; i < inst->gauss; ++i) {
            f[i] = shape(inst->xg[i], L);
            const V3 rx = combine(q, f[i].sx);
            strain[i] = 0.5 * (dot(rx, rx) - 1.0);
            largest = std::max(largest, strain[i]);
        }
        double scale = inst->geometric;
        if (scale < 0.0) {  // automatic: where the step cannot resolve a sideways wave
            const double a = h2 * ea * largest / rho_a, b = h2 * ei / rho_a;  // Omega^2 = a k^2 - b k^4
            const double k2 = std::min(a / (2.0 * b), kPi * kPi / (L * L));     // the worst wave the element holds
            scale = std::clamp((a * k2 - b * k2 * k2 - 2.0) / 2.0, 0.0, 1.0);
        }
        if (scale == 0.0) continue;
        for (int i = 0; i < inst->gauss; ++i) {
            const double tension = scale * ea * std::max(strain[i], 0.0) * inst->wg[i] * L;
            if (tension == 0.0) continue;
            for (int a = 0; a < 4; ++a)
                for (int b = 0; b < 4; ++b)
                    for (int k = 0; k < 3; ++k) {
                        out[(3 * a + k) + kNv * (3 * b + k)] += tension * f[i].sx[a] * f[i].sx[b];
                    }
        }
    }
    return PIVOT_OK;
}

// The strains at Gauss point i of an element at q: their values (axial,
// then the curvature's 3) and Jacobians. False (logged): the element has
// collapsed there.
struct PointStrains {
    Shape f;
    Strain s;
    double phi[kRowsPerPoint];
    double jac[kRowsPerPoint * kNv];
};
bool point_strains(const Instance* inst, const double* q, double L, int i, PointStrains& out) {
    out.f = shape(inst->xg[i], L);
    if (!strain_at(q, out.f, out.s)) {
        log_error(inst, "an element's position gradient vanishes (|r_x| < 1e-8): it has collapsed");
        return false;
    }
    out.phi[0] = out.s.axial;
    for (int k = 0; k < 3; ++k) out.phi[1 + k] = out.s.kappa[k];
    strain_jacobians(out.s, out.f, out.jac);
    return true;
}

// ABI 1.10, smooth_forces: gravity and the strains' elastic and
// Kelvin-Voigt forces at the state,
//     f = Q_g - sum_points sum_rows k_r (phi_r + tau J_r v) J_r^T,
// k_r = 1 / c_r (E A w_i axial, E I w_i bending): the forces of the rows of
// internal_rows (lambda = -(phi + tau phi-dot) / c) without the step's
// prediction of the axial stretch, and -dU/dq of the elastic energy of
// `energy` when tau = 0.
pivot_status smooth_forces(const void* instance, const pivot_element_batch* batch, const pivot_step_info* step,
                           double* forces) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!references_ok(inst, batch)) return PIVOT_ERROR;
    const V3 g = load3(step->gravity);
    const double ea = inst->youngs * inst->area, ei = inst->youngs * inst->inertia;
    for (uint32_t e = 0; e < batch->count; ++e) {
        const double L = length_of(batch, e);
        const double *q = q_of(batch->q, e), *v = q_of(batch->v, e);
        double* out = forces + static_cast<size_t>(e) * kNv;
        gravity_force(inst, L, g, out);
        for (int i = 0; i < inst->gauss; ++i) {
            PointStrains p;
            if (!point_strains(inst, q, L, i, p)) return PIVOT_ERROR;
            const double w = inst->wg[i] * L;
            for (uint32_t r = 0; r < kRowsPerPoint; ++r) {
                const double* j = p.jac + kNv * r;
                double rate = 0.0;  // phi-dot = J v
                for (uint32_t c = 0; c < kNv; ++c) rate += j[c] * v[c];
                const double tension = (r == 0 ? ea : ei) * w * (p.phi[r] + inst->tau * rate);
                for (uint32_t c = 0; c < kNv; ++c) out[c] -= tension * j[c];
            }
        }
    }
    return PIVOT_OK;
}

// ABI 1.10, force_tangent of r = M a - f (M and Q_g constant): per row,
// with H_r = d^2 phi_r / dq^2 (strain_hessian),
//     dr/dq = k_r [J_r^T (J_r + tau (H_r v)^T) + (phi_r + tau J_r v) H_r]
//     dr/dv = k_r tau J_r^T J_r
pivot_status force_tangent(const void* instance, const pivot_element_batch* batch, const pivot_step_info*,
                           const double*, double* stiffness, double* damping) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!references_ok(inst, batch)) return PIVOT_ERROR;
    const double ea = inst->youngs * inst->area, ei = inst->youngs * inst->inertia;
    double hessian[kNv][kNv];
    for (uint32_t e = 0; e < batch->count; ++e) {
        const double L = length_of(batch, e);
        const double *q = q_of(batch->q, e), *v = q_of(batch->v, e);
        double* k_out = stiffness + static_cast<size_t>(e) * kNv * kNv;
        double* d_out = damping + static_cast<size_t>(e) * kNv * kNv;
        std::memset(k_out, 0, sizeof(double) * kNv * kNv);
        std::memset(d_out, 0, sizeof(double) * kNv * kNv);
        for (int i = 0; i < inst->gauss; ++i) {
            PointStrains p;
            if (!point_strains(inst, q, L, i, p)) return PIVOT_ERROR;
            const double w = inst->wg[i] * L;
            for (uint32_t r = 0; r < kRowsPerPoint; ++r) {
                const double* j = p.jac + kNv * r;
                const double k = (r == 0 ? ea : ei) * w;
                strain_hessian(p.s, p.f, static_cast<int>(r), hessian);
                double rate = 0.0, hv[kNv];
                for (uint32_t c = 0; c < kNv; ++c) {
                    rate += j[c] * v[c];
                    hv[c] = 0.0;
                    for (uint32_t d = 0; d < kNv; ++d) hv[c] += hessian[c][d] * v[d];
                }
                const double tension = k * (p.phi[r] + inst->tau * rate);
                for (uint32_t col = 0; col < kNv; ++col)
                    for (uint32_t row = 0; row < kNv; ++row) {
                        k_out[row + kNv * col] +=
                            k * j[row] * (j[col] + inst->tau * hv[col]) + tension * hessian[row][col];
                        d_out[row + kNv * col] += k * inst->tau * j[row] * j[col];
                    }
            }
        }
    }
    return PIVOT_OK;
}

pivot_status create(const pivot_host* host, const double* params, uint32_t count, void** out) {
    *out = nullptr;
    auto* inst = new (std::nothrow) Instance{};
    if (inst == nullptr) return PIVOT_ERROR;
    inst->host = host;
    if (!configure(inst, params, count)) {
        delete inst;
        return PIVOT_ERROR;
    }
    *out = inst;
    return PIVOT_OK;
}
void destroy(void* instance) { delete static_cast<Instance*>(instance); }
pivot_status clone(const void* instance, void** out) {
    auto* copy = new (std::nothrow) Instance(*static_cast<const Instance*>(instance));
    *out = copy;
    return copy != nullptr ? PIVOT_OK : PIVOT_ERROR;
}
pivot_status set_params(void* instance, const double* params, uint32_t count) {
    auto* inst = static_cast<Instance*>(instance);
    Instance updated = *inst;
    if (!configure(&updated, params, count)) return PIVOT_ERROR;
    *inst = updated;
    return PIVOT_OK;
}

// Instance parameters first (radius .. damping), then the per-item length.
const pivot_param_info kParams[] = {
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, PIVOT_PARAM_MIN_EXCLUSIVE, "radius", "m",
     "radius of the circular cross-section (A = pi r^2, I = pi r^4 / 4; also the collision radius)", 0.01, 0.0,
     HUGE_VAL, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, PIVOT_PARAM_MIN_EXCLUSIVE, "density", "kg/m^3",
     "mass density of the material", 7850.0, 0.0, HUGE_VAL, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, PIVOT_PARAM_MIN_EXCLUSIVE, "youngs_modulus", "Pa",
     "Young's modulus E (axial stiffness E A, bending stiffness E I)", 2e11, 0.0, HUGE_VAL, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "gauss_points", "1",
     "Gauss-Legendre points per element; 4 strain rows (axial, 3 curvature) per point", 5.0,
     static_cast<double>(kMinGauss), static_cast<double>(kMaxGauss), nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, 0, "damping", "s",
     "Kelvin-Voigt material damping time constant tau (stress = E (strain + tau strain rate)); 0 = none", 0.0, 0.0,
     HUGE_VAL, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, 0, "geometric_stiffness", "1",
     "scale of the tension's geometric stiffness in the step (internal_stiffness), in every element: 1 keeps "
     "thin, highly tensioned cables stable at large steps; 0 = none (the thesis's method); negative (the "
     "default): automatic, 1 in the elements where the step cannot resolve a sideways wave against the "
     "bending stiffness, 0 where it can",
     -1.0, -1.0, 1.0, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1,
     PIVOT_PARAM_PER_ITEM | PIVOT_PARAM_MIN_EXCLUSIVE | PIVOT_PARAM_ROLE(PIVOT_ROLE_REST_LENGTH), "length", "m",
     "reference (stress-free) length L of the element", 1.0, 0.0, HUGE_VAL, nullptr, 0, 0},
};

pivot_element_functions make_functions() {
    pivot_element_functions f{};
    f.struct_size = sizeof(f);
    f.nodes_per_element = kNodes;
    f.coords_per_node = kCoordsPerNode;
    f.velocities_per_node = kCoordsPerNode;
    f.geometry = PIVOT_ELEMENT_GEOMETRY_CURVE;
    f.instance.create = create;
    f.instance.destroy = destroy;
    f.instance.clone = clone;
    f.instance.set_params = set_params;
    f.max_internal_rows = max_internal_rows;
    f.mass_matrix = mass_matrix;
    f.generalized_forces = generalized_forces;
    f.internal_rows = internal_rows;
    f.integrate = integrate;
    f.material_frames = material_frames;
    f.energy = energy;
    f.node_coordinates = node_coordinates;
    f.internal_stiffness = internal_stiffness;
    f.smooth_forces = smooth_forces;
    f.force_tangent = force_tangent;
    return f;
}

const pivot_element_functions kFunctions = make_functions();

const pivot_plugin_descriptor kDescriptor = {
    sizeof(pivot_plugin_descriptor), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, PIVOT_KIND_ELEMENT, kId,
    "ANCF cable", "Pivot", "0.3.0",
    "3D gradient-deficient ANCF cable element: constant mass, gravity, axial and vector-curvature strain rows",
    PIVOT_ELEMENT_CAP_CONSTANT_MASS | PIVOT_ELEMENT_CAP_INTERNAL_ROWS | PIVOT_ELEMENT_CAP_SHARED_NODES, kParams,
    sizeof(kParams) / sizeof(kParams[0]), 0, &kFunctions};

const pivot_plugin_descriptor* const kPlugins[] = {&kDescriptor};

const pivot_plugin_library kLibrary = {sizeof(pivot_plugin_library), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, 1, kPlugins,
                                       nullptr, nullptr};

}  // namespace
}  // namespace pivot::ancf

PIVOT_PLUGIN_ENTRY {
    // Shared nodes are ABI 1.2: an older host would treat the chain's
    // elements as independent, so it is not served.
    return host_abi_major == PIVOT_ABI_MAJOR && host_abi_minor >= 2 ? &pivot::ancf::kLibrary : nullptr;
}

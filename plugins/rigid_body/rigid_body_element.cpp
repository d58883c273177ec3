// pivot.element.rigid_body: the rigid body as an element plugin, written
// against the public ABI only (<pivot/plugin_element.h>).
//
// One node per body: q = (x, y, z, qw, qx, qy, qz), position of the centre of
// mass and unit quaternion body -> world; v = (v, omega), both in world
// coordinates. Mass matrix diag(m I, R I_b R^T).
//
// Gyroscopic term: the explicit torque -omega x (I omega) makes a fast
// spinning body gain energy at large steps (it is unstable for rotation about
// the intermediate axis). As Bullet and Box2D v3 do (Catto, "Numerical
// Methods", GDC 2015), the element takes one Newton step of the implicit
// Euler update of Euler's equation in the body frame,
//     I_b (w2 - w1) + h w2 x (I_b w2) = 0,
//     J = I_b + h (skew(w1) I_b - skew(I_b w1)),   w2 = w1 - J^-1 h w1 x (I_b w1),
// and returns the torque that reproduces it through M v_free = M v + h f:
//     tau = R I_b (w2 - w1) / h.
// Orientation update: q+ = exp(h omega / 2) q (the exact rotation for constant
// omega, then normalized), not q + h/2 omega q followed by normalization.
#include <cstring>
#include <new>

#include <pivot/plugin_element.h>

#include "rigid_body_math.hpp"

namespace pivot::rigid {
namespace {

constexpr uint32_t kCoords = 7;
constexpr uint32_t kVelocities = 6;

enum Gyroscopic { kImplicit = 0, kExplicit = 1, kNone = 2 };

struct Instance {
    const pivot_host* host;
    int gyroscopic;
};

void log_error(const Instance* inst, const char* message) {
    if (inst->host != nullptr && inst->host->log != nullptr) {
        inst->host->log(inst->host->context, PIVOT_LOG_ERROR, "pivot.element.rigid_body", message);
    }
}

// Per-item parameters, in schema order: mass, inertia_diagonal[3], inertia_products[3].
struct Body {
    double mass;
    Mat3 inertia;  // body frame, at the centre of mass
};

Body body_of(const pivot_element_batch* batch, uint32_t e) {
    const double* p = batch->item_params + static_cast<size_t>(e) * batch->item_param_stride;
    Body b{};
    b.mass = p[0];
    b.inertia = Mat3{{{p[1], p[4], p[5]}, {p[4], p[2], p[6]}, {p[5], p[6], p[3]}}};
    return b;
}

// Sylvester's criterion on the 3x3 inertia tensor.
bool positive_definite(const Mat3& i) {
    const auto& m = i.m;
    const double d2 = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    const double d3 = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                      m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                      m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    return m[0][0] > 0 && d2 > 0 && d3 > 0;
}

bool check_items(const Instance* inst, const pivot_element_batch* batch) {
    for (uint32_t e = 0; e < batch->count; ++e) {
        if (!positive_definite(body_of(batch, e).inertia)) {
            log_error(inst, "an inertia tensor is not positive definite");
            return false;
        }
    }
    return true;
}

Quat orientation(const double* q) { return normalized(load_quat(q + 3)); }

pivot_status mass_matrix(const void* instance, const pivot_element_batch* batch, double* mass) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!check_items(inst, batch)) return PIVOT_ERROR;
    for (uint32_t e = 0; e < batch->count; ++e) {
        const Body b = body_of(batch, e);
        const Mat3 r = rotation(orientation(batch->q + e * kCoords));
        const Mat3 world = r * b.inertia * transpose(r);
        double* m = mass + static_cast<size_t>(e) * kVelocities * kVelocities;
        std::memset(m, 0, sizeof(double) * kVelocities * kVelocities);
        for (int i = 0; i < 3; ++i) m[i + i * kVelocities] = b.mass;
        for (int r_ = 0; r_ < 3; ++r_)
            for (int c = 0; c < 3; ++c) m[(3 + r_) + (3 + c) * kVelocities] = world.m[r_][c];
    }
    return PIVOT_OK;
}

pivot_status generalized_forces(const void* instance, const pivot_element_batch* batch,
                                 const pivot_step_info* step, double* forces) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!check_items(inst, batch)) return PIVOT_ERROR;
    const Vec3 g = load3(step->gravity);
    const double h = step->timestep;
    for (uint32_t e = 0; e < batch->count; ++e) {
        const Body b = body_of(batch, e);
        const Mat3 r = rotation(orientation(batch->q + e * kCoords));
        const Vec3 omega = load3(batch->v + e * kVelocities + 3);
        Vec3 torque{0, 0, 0};
        if (inst->gyroscopic == kExplicit) {
            torque = -1.0 * cross(omega, r * (b.inertia * (transpose(r) * omega)));
        } else if (inst->gyroscopic == kImplicit) {
            const Vec3 w1 = transpose(r) * omega;  // body frame
            const Vec3 iw = b.inertia * w1;
            const Vec3 residual = h * cross(w1, iw);
            Mat3 jacobian = skew(w1) * b.inertia;
            const Mat3 s = skew(iw);
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) jacobian.m[i][j] = b.inertia.m[i][j] + h * (jacobian.m[i][j] - s.m[i][j]);
            Vec3 delta{0, 0, 0};
            if (!solve3(jacobian, residual, delta)) {
                log_error(inst, "the implicit gyroscopic update is singular");
                return PIVOT_ERROR;
            }
            // w2 - w1 = -delta; tau = R I_b (w2 - w1) / h.
            torque = (-1.0 / h) * (r * (b.inertia * delta));
        }
        double* f = forces + static_cast<size_t>(e) * kVelocities;
        store3(b.mass * g, f);
        store3(torque, f + 3);
    }
    return PIVOT_OK;
}

// The forces at the state, for any timestep (ABI 1.10): gravity and the
// gyroscopic torque -omega x (I_w omega) as they are at (q, v) (none with
// gyroscopic = none).
pivot_status smooth_forces(const void* instance, const pivot_element_batch* batch, const pivot_step_info* step,
                           double* forces) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!check_items(inst, batch)) return PIVOT_ERROR;
    const Vec3 g = load3(step->gravity);
    for (uint32_t e = 0; e < batch->count; ++e) {
        const Body b = body_of(batch, e);
        const Mat3 r = rotation(orientation(batch->q + e * kCoords));
        const Vec3 omega = load3(batch->v + e * kVelocities + 3);
        const Vec3 torque = inst->gyroscopic == kNone ? Vec3{0, 0, 0}
                                                      : -1.0 * cross(omega, r * (b.inertia * (transpose(r) * omega)));
        double* f = forces + static_cast<size_t>(e) * kVelocities;
        store3(b.mass * g, f);
        store3(torque, f + 3);
    }
    return PIVOT_OK;
}

// The tangent of r = M(q) a - f(q, v) (ABI 1.10). The linear rows are
// m a - m g: no tangent. The angular rows are I_w a + omega x (I_w omega)
// with I_w = R I_b R^T. integrate turns the body by dtheta in world
// coordinates, R <- exp([dtheta]x) R, so I_w <- I_w + [dtheta]x I_w -
// I_w [dtheta]x and d(I_w b)/dtheta = I_w [b]x - [I_w b]x. Hence
//     stiffness = I_w [a]x - [I_w a]x + [omega]x (I_w [omega]x - [I_w omega]x)
//     damping   = [omega]x I_w - [I_w omega]x
// (without the gyroscopic terms when gyroscopic = none).
pivot_status force_tangent(const void* instance, const pivot_element_batch* batch, const pivot_step_info*,
                           const double* accelerations, double* stiffness, double* damping) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!check_items(inst, batch)) return PIVOT_ERROR;
    for (uint32_t e = 0; e < batch->count; ++e) {
        const Body b = body_of(batch, e);
        const Mat3 r = rotation(orientation(batch->q + e * kCoords));
        const Mat3 iw = r * b.inertia * transpose(r);
        const Vec3 alpha = load3(accelerations + static_cast<size_t>(e) * kVelocities + 3);
        const Vec3 omega = load3(batch->v + static_cast<size_t>(e) * kVelocities + 3);
        Mat3 k = iw * skew(alpha);
        const Mat3 s_alpha = skew(iw * alpha);
        Mat3 d{};
        if (inst->gyroscopic != kNone) {
            const Mat3 s_omega = skew(omega), s_momentum = skew(iw * omega);
            Mat3 turn = iw * s_omega;
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) turn.m[i][j] -= s_momentum.m[i][j];
            const Mat3 gyro = s_omega * turn;
            d = s_omega * iw;
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) {
                    k.m[i][j] += gyro.m[i][j];
                    d.m[i][j] -= s_momentum.m[i][j];
                }
        }
        double* ks = stiffness + static_cast<size_t>(e) * kVelocities * kVelocities;
        double* ds = damping + static_cast<size_t>(e) * kVelocities * kVelocities;
        std::memset(ks, 0, sizeof(double) * kVelocities * kVelocities);
        std::memset(ds, 0, sizeof(double) * kVelocities * kVelocities);
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                ks[(3 + i) + (3 + j) * kVelocities] = k.m[i][j] - s_alpha.m[i][j];
                ds[(3 + i) + (3 + j) * kVelocities] = d.m[i][j];
            }
        }
    }
    return PIVOT_OK;
}

pivot_status integrate(const void*, uint32_t node_count, const double* q, const double* v, double h,
                       double* q_out) {
    for (uint32_t k = 0; k < node_count; ++k) {
        const double* qk = q + static_cast<size_t>(k) * kCoords;
        const double* vk = v + static_cast<size_t>(k) * kVelocities;
        const Vec3 x = load3(qk) + h * load3(vk);
        // Omega is in world coordinates, so the increment multiplies from the left.
        const Quat rotated = normalized(exp_rotation(h * load3(vk + 3)) * load_quat(qk + 3));
        double* out = q_out + static_cast<size_t>(k) * kCoords;
        store3(x, out);
        store_quat(rotated, out + 3);
    }
    return PIVOT_OK;
}

// A body placed at `pose`: q is the pose itself (x, then the orientation
// quaternion, normalized).
pivot_status node_coordinates(const void*, const double pose[7], double* q_node) {
    if (pose == nullptr || q_node == nullptr) return PIVOT_ERROR;
    const Quat o = load_quat(pose + 3);
    if (!(o.w * o.w + o.x * o.x + o.y * o.y + o.z * o.z > 0.0)) return PIVOT_ERROR;
    store3(load3(pose), q_node);
    store_quat(normalized(o), q_node + 3);
    return PIVOT_OK;
}

pivot_status material_frames(const void*, const pivot_element_batch* batch, const pivot_material_point* points,
                             uint32_t point_count, double* poses, double* twists, double* jacobians) {
    for (uint32_t p = 0; p < point_count; ++p) {
        const uint32_t e = points[p].element;
        const double* q = batch->q + static_cast<size_t>(e) * kCoords;
        const double* v = batch->v + static_cast<size_t>(e) * kVelocities;
        const Quat o = orientation(q);
        const Vec3 arm = rotation(o) * load3(points[p].local);  // from the centre of mass, world
        const Vec3 omega = load3(v + 3);
        store3(load3(q) + arm, poses + 7 * p);
        store_quat(o, poses + 7 * p + 3);
        store3(load3(v) + cross(omega, arm), twists + 6 * p);
        store3(omega, twists + 6 * p + 3);
        // twist = J v with J = [[I, -skew(arm)], [0, I]] (6 x 6, column-major).
        double* j = jacobians + static_cast<size_t>(36) * p;
        std::memset(j, 0, sizeof(double) * 36);
        const Mat3 s = skew(arm);
        for (int i = 0; i < 3; ++i) {
            j[i + 6 * i] = 1.0;
            j[(3 + i) + 6 * (3 + i)] = 1.0;
            for (int c = 0; c < 3; ++c) j[i + 6 * (3 + c)] = -s.m[i][c];
        }
    }
    return PIVOT_OK;
}

// The lever arm's turn (plugin_element.h frame_stiffness): a force F held
// fixed at the point r = R local (from the centre of mass) gives the torque
// r x F; turning the body by dtheta turns the arm, d(r x F) = (dtheta x r)
// x F = [F]x [r]x dtheta, so K = -[F]x [r]x = (F . r) I - r F^T on dtheta.
// The torque of the wrench and the force on the centre do not turn.
pivot_status frame_stiffness(const void*, const pivot_element_batch* batch, const pivot_material_point* points,
                             uint32_t point_count, const double* wrenches, double* stiffness) {
    for (uint32_t p = 0; p < point_count; ++p) {
        const double* q = batch->q + static_cast<size_t>(points[p].element) * kCoords;
        const Vec3 arm = rotation(orientation(q)) * load3(points[p].local);
        const Vec3 force = load3(wrenches + 6 * static_cast<size_t>(p));
        const double fr = dot(force, arm);
        const double a[3] = {arm.x, arm.y, arm.z};
        const double f[3] = {force.x, force.y, force.z};
        double* k = stiffness + static_cast<size_t>(36) * p;
        std::memset(k, 0, sizeof(double) * 36);
        for (int i = 0; i < 3; ++i) {
            for (int c = 0; c < 3; ++c) k[(3 + i) + 6 * (3 + c)] = (i == c ? fr : 0.0) - a[i] * f[c];
        }
    }
    return PIVOT_OK;
}

pivot_status energy(const void* instance, const pivot_element_batch* batch, const pivot_step_info* step,
                    double* kinetic, double* gravitational, double* elastic) {
    const auto* inst = static_cast<const Instance*>(instance);
    if (!check_items(inst, batch)) return PIVOT_ERROR;
    const Vec3 g = load3(step->gravity);
    double t = 0.0;
    double u = 0.0;
    for (uint32_t e = 0; e < batch->count; ++e) {
        const Body b = body_of(batch, e);
        const double* q = batch->q + static_cast<size_t>(e) * kCoords;
        const double* v = batch->v + static_cast<size_t>(e) * kVelocities;
        const Mat3 r = rotation(orientation(q));
        const Vec3 w_body = transpose(r) * load3(v + 3);
        const Vec3 lin = load3(v);
        t += 0.5 * b.mass * dot(lin, lin) + 0.5 * dot(w_body, b.inertia * w_body);
        u -= b.mass * dot(g, load3(q));
    }
    *kinetic = t;
    *gravitational = u;
    *elastic = 0.0;
    return PIVOT_OK;
}

pivot_status create(const pivot_host* host, const double* params, uint32_t count, void** out) {
    if (count != 1) return PIVOT_ERROR;
    auto* inst = new (std::nothrow) Instance{host, static_cast<int>(params[0])};
    *out = inst;
    return inst != nullptr ? PIVOT_OK : PIVOT_ERROR;
}
void destroy(void* instance) { delete static_cast<Instance*>(instance); }
pivot_status clone(const void* instance, void** out) {
    auto* copy = new (std::nothrow) Instance(*static_cast<const Instance*>(instance));
    *out = copy;
    return copy != nullptr ? PIVOT_OK : PIVOT_ERROR;
}
pivot_status set_params(void* instance, const double* params, uint32_t count) {
    if (count != 1) return PIVOT_ERROR;
    static_cast<Instance*>(instance)->gyroscopic = static_cast<int>(params[0]);
    return PIVOT_OK;
}

const char* const kGyroscopicChoices[] = {"implicit", "explicit", "none"};

const pivot_param_info kParams[] = {
    {sizeof(pivot_param_info), PIVOT_PARAM_ENUM, 1, 0, "gyroscopic", "",
     "treatment of the gyroscopic torque: implicit (stable at large steps), explicit, or none", 0, 0, 2,
     kGyroscopicChoices, 3, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, PIVOT_PARAM_PER_ITEM | PIVOT_PARAM_MIN_EXCLUSIVE, "mass", "kg",
     "mass of the body", 1.0, 0.0, HUGE_VAL, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 3, PIVOT_PARAM_PER_ITEM | PIVOT_PARAM_MIN_EXCLUSIVE,
     "inertia_diagonal", "kg m^2", "Ixx, Iyy, Izz about the centre of mass in the body frame", 1.0, 0.0, HUGE_VAL,
     nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 3, PIVOT_PARAM_PER_ITEM, "inertia_products", "kg m^2",
     "Ixy, Ixz, Iyz: the off-diagonal entries of the inertia tensor (0 for principal axes)", 0.0, -HUGE_VAL,
     HUGE_VAL, nullptr, 0, 0},
};

pivot_element_functions make_functions() {
    pivot_element_functions f{};
    f.struct_size = sizeof(f);
    f.nodes_per_element = 1;
    f.coords_per_node = kCoords;
    f.velocities_per_node = kVelocities;
    f.geometry = PIVOT_ELEMENT_GEOMETRY_SHAPES;
    f.instance.create = create;
    f.instance.destroy = destroy;
    f.instance.clone = clone;
    f.instance.set_params = set_params;
    f.mass_matrix = mass_matrix;
    f.generalized_forces = generalized_forces;
    f.integrate = integrate;
    f.material_frames = material_frames;
    f.energy = energy;
    f.node_coordinates = node_coordinates;
    f.frame_stiffness = frame_stiffness;
    f.smooth_forces = smooth_forces;
    f.force_tangent = force_tangent;
    return f;
}

const pivot_element_functions kFunctions = make_functions();

const pivot_plugin_descriptor kDescriptor = {
    sizeof(pivot_plugin_descriptor), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, PIVOT_KIND_ELEMENT,
    "pivot.element.rigid_body", "Rigid body", "Pivot", "1.0.0",
    "rigid body: 6 velocities, unit quaternion, full inertia tensor, implicit gyroscopic torque",
    0, kParams, sizeof(kParams) / sizeof(kParams[0]), 0, &kFunctions};

const pivot_plugin_descriptor* const kPlugins[] = {&kDescriptor};

const pivot_plugin_library kLibrary = {sizeof(pivot_plugin_library), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, 1, kPlugins,
                                       nullptr, nullptr};

}  // namespace
}  // namespace pivot::rigid

PIVOT_PLUGIN_ENTRY {
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &pivot::rigid::kLibrary : nullptr;
}

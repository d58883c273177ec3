// Stage stiffness: the joints' geometric stiffness (seed000 2.3,
// Eqs. 3.4-3.12), added to the mass blocks before they are factored.
//
// The step applies a joint's force along J(q) taken at the start of the
// step. A force f that turns with the configuration, J(q+)^T f, differs by
// the geometric stiffness: J(q+)^T f = J(q)^T f - h K v+ + O(h^2) with
// K = -d(J^T f)/dq at constant f. Left explicit, a light link between two
// tensioned joints oscillates at omega^2 = 12 T / (m l) and symplectic
// Euler is stable only for h omega < 2 (hanging_chain_test.cpp: 7.6 ms
// for a 50-link chain; 60 Hz is 16.7 ms). K is taken at the previous
// step's forces (the seed's choice: the map (q, v, lambda) -> (q+, v+,
// lambda+)) and assembled per joint on the two frames' displacements:
//     K = K_joint + diag(K_frame1, K_frame2)
// (plugin_joint.h geometric_stiffness: the rows' directions turning;
// plugin_element.h frame_stiffness: the lever arms turning).
//
// Three choices make it damp only what is unstable (docs/engine.md
// "Stable steps at 60 Hz"):
// 1. Relative motion only. With f fixed in world coordinates, K also
//    resists the joint turning as a whole, which it does when a chain
//    swings: the force turns with it. Treated implicitly that is implicit
//    Euler on the swing (energy lost at (h omega)^2 per step: a 1 m chain
//    at 60 Hz would stop in seconds). So K acts on the frames' motion
//    relative to the joint's mean rigid motion (mean angular velocity,
//    mean velocity of the midpoint c of the two frame origins):
//        t_s - tbar_s,  tbar_s = (vbar_c + wbar x (p_s - c), wbar),
//    i.e. K_rel = P^T sym(K) P with P = I - Tbar, of which the positive
//    semidefinite part is kept (compression, which buckles, is left out:
//    explicit, a negative stiffness would grow a zigzag by
//    1 + h^2 |kappa| / m per step). A joint to the world takes none: the
//    force there turns with the one body that moves.
// 2. Block-diagonal, implicit part dominant. K_rel couples the two bodies;
//    the mass blocks stay one per body (a chain of 200 links keeps 200
//    6 x 6 factorizations) by splitting K_rel = D - (D - K_rel), D
//    block-diagonal with D_s = 2 K_rel,ss (D - K_rel is then positive
//    semidefinite: [[A, B], [B^T, C]] <= [[2A, 0], [0, 2C]]), D implicit and
//    the rest explicit at the start-of-step twists t:
//        (M + h^2 alpha D) (v+ - v) = h f - h^2 alpha J_f^T K_rel t.
//    Rigid motion of the pair (K_rel t = 0) is not damped at all.
// 3. Only as strong as the step needs: alpha per joint from how stiff its
//    elements' fastest mode is (stiffness_strength, below).
// Elements of chains (cables) take no joint stiffness here: their block is
// one sparse matrix and their own tension stiffness is internal_stiffness.
#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

#include "common/error.hpp"
#include "step/dense_cholesky.hpp"
#include "step/stiffness_bound.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

constexpr uint32_t kMaxNv = 12;  // elements with more velocities take no joint stiffness
constexpr size_t kSplitSize = 84;  // per joint: D_1, D_2 (6 x 6), K_rel t (12)
using Mat12 = Eigen::Matrix<double, 12, 12>;
using Vec12 = Eigen::Matrix<double, 12, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using MatN = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxNv, kMaxNv>;
using FrameJacobian = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, kMaxNv>;
using VecN = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxNv, 1>;

Eigen::Matrix3d skew(const Eigen::Vector3d& a) {
    Eigen::Matrix3d s;
    s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
    return s;
}

// P = I - Tbar: the frames' twists relative to the joint's mean rigid motion.
Mat12 relative_motion(const double* pose1, const double* pose2) {
    const Eigen::Vector3d d =
        Eigen::Vector3d(pose2[0], pose2[1], pose2[2]) - Eigen::Vector3d(pose1[0], pose1[1], pose1[2]);
    const Eigen::Matrix3d i3 = Eigen::Matrix3d::Identity();
    // wbar = (w1 + w2)/2; vbar_c = (v1 + v2)/2 + (w1 - w2) x d/4 (the mean of
    // each side's velocity at the midpoint c); tbar_s = (vbar_c - [p_s - c]x wbar, wbar).
    Eigen::Matrix<double, 3, 12> wbar = Eigen::Matrix<double, 3, 12>::Zero();
    wbar.block<3, 3>(0, 3) = 0.5 * i3;
    wbar.block<3, 3>(0, 9) = 0.5 * i3;
    Eigen::Matrix<double, 3, 12> vbar = Eigen::Matrix<double, 3, 12>::Zero();
    vbar.block<3, 3>(0, 0) = 0.5 * i3;
    vbar.block<3, 3>(0, 6) = 0.5 * i3;
    vbar.block<3, 3>(0, 3) = -0.25 * skew(d);  // (w1 - w2) x d / 4 = -[d]x (w1 - w2) / 4
    vbar.block<3, 3>(0, 9) = 0.25 * skew(d);
    Mat12 tbar;
    const Eigen::Vector3d arm[2] = {-0.5 * d, 0.5 * d};  // p_s - c
    for (int s = 0; s < 2; ++s) {
        tbar.block<3, 12>(6 * s, 0) = vbar - skew(arm[s]) * wbar;
        tbar.block<3, 12>(6 * s + 3, 0) = wbar;
    }
    return Mat12::Identity() - tbar;
}

// Whether a symmetric 3 x 3 matrix is positive semidefinite: all its
// principal minors are >= 0 (the leading ones alone do not decide a
// singular matrix).
bool semidefinite(const Eigen::Matrix3d& a) {
    const double m01 = a(0, 0) * a(1, 1) - a(0, 1) * a(0, 1);
    const double m02 = a(0, 0) * a(2, 2) - a(0, 2) * a(0, 2);
    const double m12 = a(1, 1) * a(2, 2) - a(1, 2) * a(1, 2);
    return a(0, 0) >= 0.0 && a(1, 1) >= 0.0 && a(2, 2) >= 0.0 && m01 >= 0.0 && m02 >= 0.0 && m12 >= 0.0 &&
           a.determinant() >= 0.0;
}

// The positive semidefinite part of a symmetric matrix (eigenvalues < 0 set to 0).
template <class Matrix>
Matrix semidefinite_part(const Matrix& a) {
    if constexpr (Matrix::RowsAtCompileTime == 3) {
        // Within 1e-9 of its trace of semidefinite (a tension's stiffness
        // is, to the rounding of its zero eigenvalue along the link and the
        // small sideways force of a swing): shifted by that instead of
        // decomposed, which changes the stiffness by 1e-9 relative.
        const Matrix shifted = a + (1e-9 * std::abs(a.trace())) * Matrix::Identity();
        if (semidefinite(shifted)) return shifted;
    }
    Eigen::SelfAdjointEigenSolver<Matrix> eigen;
    if constexpr (Matrix::RowsAtCompileTime == 3) eigen.computeDirect(a);
    else eigen.compute(a);
    return eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0.0).asDiagonal() * eigen.eigenvectors().transpose();
}

// Whether K acts on the frames' rotations only: every entry outside the
// rotation rows and columns (3..5, 9..11) is zero.
bool rotations_only(const Eigen::Ref<const Mat12>& k) {
    // The translation rows (0..2, 6..8) in every column, then the
    // translation columns of the rotation rows: whole blocks at a time.
    return k.block<3, 12>(0, 0).isZero(0.0) && k.block<3, 12>(6, 0).isZero(0.0) &&
           k.block<3, 3>(3, 0).isZero(0.0) && k.block<3, 3>(3, 6).isZero(0.0) && k.block<3, 3>(9, 0).isZero(0.0) &&
           k.block<3, 3>(9, 6).isZero(0.0);
}

// S = A - B - B^T + C for sym(K)'s rotation blocks [[A, B], [B^T, C]]:
// the stiffness against the two frames turning relative to each other
// (split_joint's rotations-only case).
Eigen::Matrix3d relative_rotation_stiffness(const Eigen::Ref<const Mat12>& k) {
    const Eigen::Matrix3d a = 0.5 * (k.block<3, 3>(3, 3) + k.block<3, 3>(3, 3).transpose());
    const Eigen::Matrix3d b = 0.5 * (k.block<3, 3>(3, 9) + k.block<3, 3>(9, 3).transpose());
    const Eigen::Matrix3d c = 0.5 * (k.block<3, 3>(9, 9) + k.block<3, 3>(9, 9).transpose());
    return a - b - b.transpose() + c;
}

// A joint's split into `split` (kSplitSize values: D_1, D_2, K_rel t) from
// its K, the frames' poses and their twists t. K_rel is the semidefinite
// part of P^T sym(K) P.
void split_joint(const Mat12& k, const double* pose1, const double* pose2, const double* twist1,
                 const double* twist2, double* split) {
    Eigen::Map<Mat6> d1(split), d2(split + 36);
    Eigen::Map<Vec12> change(split + 72);
    const Eigen::Map<const Eigen::Matrix<double, 6, 1>> t1(twist1), t2(twist2);
    if (rotations_only(k)) {
        // On the rotations only (ball joints: the lever arms; hinge
        // alignment rows), P keeps (w1 - w2)/2 of them and K_rel =
        // (1/4) U S U^T with U = (I, -I) and S = A - B - B^T + C for
        // sym(K)'s rotation blocks [[A, B], [B^T, C]]: a 3 x 3 problem,
        // D_s = 2 K_rel,ss = S / 2 and K_rel t = (S (w1 - w2), -S (w1 - w2)) / 4.
        const Eigen::Matrix3d s3 = semidefinite_part<Eigen::Matrix3d>(relative_rotation_stiffness(k));
        d1.setZero();
        d1.bottomRightCorner<3, 3>() = 0.5 * s3;
        d2 = d1;
        const Eigen::Vector3d turn = 0.25 * (s3 * (t1.tail<3>() - t2.tail<3>()));
        change.setZero();
        change.segment<3>(3) = turn;
        change.segment<3>(9) = -turn;
        return;
    }
    const Mat12 p = relative_motion(pose1, pose2);
    const Mat12 k_rel = semidefinite_part<Mat12>(p.transpose() * (0.5 * (k + k.transpose())) * p);
    Vec12 t;
    t.head<6>() = t1;
    t.tail<6>() = t2;
    change = k_rel * t;
    d1 = 2.0 * k_rel.block<6, 6>(0, 0);
    d2 = 2.0 * k_rel.block<6, 6>(6, 6);
}

// Whether a joint side moves (an element that is not fixed), and whether
// its element takes stiffness into its mass block (not a chain's).
bool movable(const WorldModel& model, const Attachment& a) {
    return a.element != Attachment::kWorld && !model.fixed[a.element];
}
bool stiffenable(const WorldModel& model, const Attachment& a) {
    if (!movable(model, a)) return false;
    const ElementGroup& g = model.element_groups[model.element_group[a.element]];
    return !g.chain && g.nv <= kMaxNv;
}

// Whether a joint takes a split (the exact path and the bound decide on
// the same joints). A joint to the world (or a fixed element) takes none:
// its force turns with the one body that moves (a pendulum's rod force
// turns with the rod; damping that would slow every pendulum).
bool takes_split(const WorldModel& model, const JointRecord& record) {
    if (record.removed || !movable(model, record.frame1) || !movable(model, record.frame2)) return false;
    return stiffenable(model, record.frame1) || stiffenable(model, record.frame2);
}

// How much of the split a joint gets, alpha in [0, 1), from the largest
// Omega^2 = h^2 omega^2 of its elements' modes (element_stiffness_number).
// For the stiffest mode, a zigzag whose stiffness is its share of D, the
// split at strength alpha is the seed's alpha method (2.4, Eq. 3.27): per
// step the amplitude^2 falls by 1 / (1 + alpha Omega^2), and the step is
// stable while Omega^2 (1 - 2 alpha) <= 4. alpha = 1 - 1/Omega^2 is 0 for
// Omega <= 1, so motion the step resolves is not damped at all (a double
// pendulum at 1 ms keeps its energy), and tends to 1 (implicit Euler) for
// stiff modes. It keeps the step stable when the stiffness, taken at the
// previous step's forces, underestimates the mode's by up to 4 times
// (Omega^2 (1 - 2 alpha) = 2 - Omega^2 for Omega > 1), which happens
// when a chain's tension jumps (a load caught by it).
double stiffness_strength(double omega2) { return omega2 > 1.0 ? 1.0 - 1.0 / omega2 : 0.0; }

// Whether a 6 x 6 frame Jacobian is a rigid body's: angular-velocity rows
// (0, I) (plugin_element.h material_frames; checked, not assumed).
template <class Jacobian>
bool rigid_frame(const Jacobian& jf) {
    return jf.template bottomLeftCorner<3, 3>().isZero(0.0) && jf.template bottomRightCorner<3, 3>().isIdentity(0.0);
}

// block += scale * J_f^T d J_f and, with `change` (6 values), force +=
// scale * J_f^T change, for J_f a 6 x nv frame Jacobian; Block, Force and
// Jacobian are fixed-size for a rigid body (nv = 6), bounded-dynamic else.
template <class Block, class Force, class Jacobian>
void add_split(Block&& block, Force&& force, const Jacobian& jf, double scale, const Mat6& d, const double* change) {
    const bool rotation_split = d.topRows<3>().isZero(0.0) && d.leftCols<3>().isZero(0.0);
    const auto jr = jf.template bottomRows<3>();  // the frame's angular-velocity rows
    // On a rigid body's frame (rigid_frame) J_r^T D_r J_r and J^T change
    // are D_r and the change's rotation, placed: the same numbers the
    // products give (their other terms are exact zeros).
    bool placed = false;
    if constexpr (Jacobian::ColsAtCompileTime == 6) {
        placed = rotation_split && rigid_frame(jf);
    }
    if (placed) {
        block.template bottomRightCorner<3, 3>().noalias() += scale * d.bottomRightCorner<3, 3>();
    } else if (rotation_split) {
        // Rotations only (ball joints' lever arms, hinges' alignment rows): J_r^T D_r J_r.
        const Eigen::Matrix3d dr = d.bottomRightCorner<3, 3>();
        block.noalias() += scale * (jr.transpose() * (dr * jr));
    } else {
        block.noalias() += scale * (jf.transpose() * (d * jf));
    }
    if (change == nullptr) return;
    const Eigen::Map<const Eigen::Matrix<double, 6, 1>> c(change);
    if (placed && c.head<3>().isZero(0.0)) {
        force.template tail<3>().noalias() += scale * c.tail<3>();
    } else {
        force.noalias() += scale * (jf.transpose() * c);
    }
}

// Adds scale * J_f^T d J_f to the element's D and, with `change` (6
// values), scale * J_f^T change to its explicit force change.
void add_to_element(const WorldModel& model, StepScratch& s, uint32_t joint, int side, double scale,
                    const Mat6& d, const double* change) {
    const JointRecord& record = model.joints[joint];
    const uint32_t element = (side == 0 ? record.frame1 : record.frame2).element;
    const uint32_t nv = model.element_nv[element];
    double* block = s.joint_stiffness.data() + s.mass_offset[element];
    double* force = s.joint_stiffness_force.data() + model.element_v_offset[element];
    if (!s.stiffened[element]) {
        std::fill(block, block + nv * nv, 0.0);
        std::fill(force, force + nv, 0.0);
        s.stiffened[element] = 1;
    }
    const double* jf = s.frame_jacobian.data() + s.frame_jacobian_offset[2 * joint + side];
    if (nv == 6) {  // a rigid body
        add_split(Eigen::Map<Mat6>(block), Eigen::Map<Eigen::Matrix<double, 6, 1>>(force),
                  Eigen::Map<const Mat6>(jf), scale, d, change);
    } else {
        add_split(Eigen::Map<MatN>(block, nv, nv), Eigen::Map<VecN>(force, nv),
                  FrameJacobian(Eigen::Map<const Eigen::Matrix<double, 6, Eigen::Dynamic>>(jf, 6, nv)), scale, d,
                  change);
    }
}

// The lever arms: each attachment's wrench J_side^T f, its element's frame
// stiffness (plugin_element.h frame_stiffness) at it, added to the joint's
// K on that side.
void add_lever_arms(const WorldModel& model, const WorldState& state, StepScratch& s) {
    for (uint32_t gi = 0; gi < model.element_groups.size(); ++gi) {
        const ElementGroup& group = model.element_groups[gi];
        auto& gp = s.group_points[gi];
        if (gp.points.empty() || group.chain) continue;
        for (size_t p = 0; p < gp.points.size(); ++p) {
            const uint32_t joint = gp.attachment[p] / 2, side = gp.attachment[p] % 2;
            const JointRecord& record = model.joints[joint];
            const auto& out = s.joint_rows[record.group];
            frame_wrench(out.forces.data(), out.jacobians.data(), model.joint_groups[record.group].max_rows,
                         record.member, out.row_counts[record.member], side, gp.wrenches.data() + 6 * p);
        }
        const CallResult r = checked_frame_stiffness(group.instance, element_batch(group, state), gp.points.data(),
                                                     static_cast<uint32_t>(gp.points.size()), gp.wrenches.data(),
                                                     guarded(gp.frame_stiffness));
        require_usable(r);
        // Into the joints' K, on the side of the frame.
        for (size_t p = 0; p < gp.points.size(); ++p) {
            const uint32_t joint = gp.attachment[p] / 2, side = gp.attachment[p] % 2;
            const JointRecord& record = model.joints[joint];
            auto& out = s.joint_rows[record.group];
            Eigen::Map<Mat12> k(out.stiffness.data() + static_cast<size_t>(record.member) * 144);
            k.block<6, 6>(6 * side, 6 * side) += Eigen::Map<const Mat6>(gp.frame_stiffness.data() + 36 * p);
        }
    }
}

// h^2 lambda_max(M^-1 D), bounded from above by Gershgorin on L^-1 D L^-T
// (M = L L^T, the step's own Cholesky: dense_cholesky.hpp, left in work's
// first nv^2 values); -1 when M is not positive definite
// (factor_mass_blocks reports it). m, d: nv x nv, column-major; work:
// 3 nv^2 values.
double stiffness_number(const double* m, const double* d, uint32_t nv, double h, double* work) {
    double* l = work;
    double* y = work + nv * nv;  // L^-1 D, then (L^-1 (L^-1 D)^T)
    double* z = work + 2 * nv * nv;
    std::copy_n(m, nv * nv, l);
    if (!cholesky_factor(l, nv)) return -1.0;
    // y = L^-1 D column by column, z = y^T, then L^-1 z column by column:
    // L^-1 D L^-T (symmetric). D is often zero in its first rows and
    // columns (rotation-only stiffness on a rigid body's (v, w)): a forward
    // solve starts at its column's first nonzero, and a zero column stays zero.
    const auto solve_column = [&](double* column) {
        uint32_t first = 0;
        while (first < nv && column[first] == 0.0) ++first;
        if (first < nv) lower_solve_from(l, nv, column, first);
    };
    for (uint32_t c = 0; c < nv; ++c) {
        double* column = y + c * nv;
        std::copy_n(d + c * nv, nv, column);
        solve_column(column);
    }
    for (uint32_t c = 0; c < nv; ++c) {
        for (uint32_t r = 0; r < nv; ++r) z[r + c * nv] = y[c + r * nv];
        solve_column(z + c * nv);
    }
    double largest = 0.0;
    for (uint32_t r = 0; r < nv; ++r) {
        double sum = 0.0;
        for (uint32_t c = 0; c < nv; ++c) sum += std::abs(z[r + c * nv]);
        largest = std::max(largest, sum);
    }
    return h * h * largest;
}

// How stiff each stiffened element's fastest mode is, Omega^2 =
// h^2 lambda_max(M^-1 D), from the D summed at full strength; the elements'
// D are then cleared for the joints to add theirs at their strength.
void stiffness_numbers(const WorldModel& model, double h, StepScratch& s) {
    for (uint32_t element = 0; element < model.element_count; ++element) {
        s.element_stiffness_number[element] = 0.0;
        if (!s.stiffened[element]) continue;
        s.stiffened[element] = 0;
        const uint32_t nv = model.element_nv[element];
        const double* m = s.mass.data() + s.mass_offset[element];
        const double* d = s.joint_stiffness.data() + s.mass_offset[element];
        double work[3 * kMaxNv * kMaxNv];
        const double number = stiffness_number(m, d, nv, h, work);
        s.element_stiffness_number[element] = std::max(number, 0.0);
        // M's factor, for the factor stage when no joint stiffens the element.
        if (number >= 0.0) {
            std::copy_n(work, nv * nv, s.mass_factor.data() + s.mass_offset[element]);
            s.mass_factor_ready[element] = 1;
        }
    }
}

// Whether every joint is surely resolved at this step (alpha = 0: no
// stiffness anywhere), from a bound of the stiffness numbers
// (stiffness_bound.hpp) instead of the joints' splits and the numbers
// themselves: at 1 ms a chain's joints are far from needing stiffness, and
// finding that out exactly cost a third of a 10-link step. Decided for the
// common case only: every active joint's K on the rotations (ball joints'
// lever arms), every stiffened side a rigid body's frame (angular rows
// (0, I)) on a 6 x 6 block with no coupling between its (v, w) halves (a
// rigid body's diag(m I, I_w)). Anything else returns false and the exact
// path decides, as it does when the bound is not small enough. Below 0.9
// the exact Omega^2 is at most 1, where stiffness_strength gives alpha = 0
// (stiffness_bound.hpp: the 10 % cover the rounding of both computations).
// The terms are >= 0, so the first body past 0.9 ends the check (a 60 Hz
// chain's first joint does).
bool surely_resolved(const WorldModel& model, StepScratch& s, double h) {
    std::vector<double>& diagonal = s.element_stiffness_bound;
    std::fill(diagonal.begin(), diagonal.end(), 0.0);
    for (uint32_t j = 0; j < model.joints.size(); ++j) {
        const JointRecord& record = model.joints[j];
        if (!takes_split(model, record)) continue;
        const auto& out = s.joint_rows[record.group];
        const Eigen::Map<const Mat12> k(out.stiffness.data() + static_cast<size_t>(record.member) * 144);
        if (k.isZero(0.0)) continue;
        if (!rotations_only(k)) return false;
        const Eigen::Matrix3d y = relative_rotation_stiffness(k);
        for (int side = 0; side < 2; ++side) {
            const Attachment& attachment = side == 0 ? record.frame1 : record.frame2;
            if (!stiffenable(model, attachment)) continue;
            const uint32_t e = attachment.element;
            if (model.element_nv[e] != 6) return false;
            const Eigen::Map<const Mat6> jf(s.frame_jacobian.data() + s.frame_jacobian_offset[2 * j + side]);
            if (!rigid_frame(jf)) return false;
            const double* m = s.mass.data() + s.mass_offset[e];
            if (!uncoupled_halves(m)) return false;
            double* x = diagonal.data() + 3 * static_cast<size_t>(e);
            if (!add_stiffness_bound(Eigen::Map<const Mat6>(m).bottomRightCorner<3, 3>(), y, x)) return false;
            if (!(stiffness_bound_omega2(x, h) <= 0.9)) return false;  // NaN included
        }
    }
    return true;
}

}  // namespace

void add_geometric_stiffness(const WorldModel& model, const WorldState& state, StepScratch& s) {
    std::fill(s.stiffened.begin(), s.stiffened.end(), 0);
    std::fill(s.mass_factor_ready.begin(), s.mass_factor_ready.end(), 0);
    std::fill(s.mass_factored.begin(), s.mass_factored.end(), 0);
    std::fill(s.joint_strength.begin(), s.joint_strength.end(), 0.0);
    if (!model.settings.geometric_stiffness || model.joints.empty()) return;
    const double h = model.settings.timestep;
    const pivot_step_info step{sizeof(pivot_step_info), 0, h, state.time,
                               {model.settings.gravity[0], model.settings.gravity[1], model.settings.gravity[2]}};

    // The rows' forces of the last step (impulse / h) and each joint's K_joint.
    bool any_force = false;
    for (uint32_t g = 0; g < model.joint_groups.size(); ++g) {
        const JointGroup& jg = model.joint_groups[g];
        if (jg.count == 0) continue;
        auto& out = s.joint_rows[g];
        const double* impulses = state.joint_impulses.data() + jg.impulse_offset;
        for (size_t i = 0; i < out.forces.size(); ++i) {
            out.forces[i] = impulses[i] / h;
            any_force = any_force || out.forces[i] != 0.0;
        }
        const pivot_joint_batch batch{jg.count,         jg.item_stride,   jg.item_params.data(), out.pose1.data(),
                                      out.pose2.data(), out.twist1.data(), out.twist2.data()};
        const CallResult r =
            checked_joint_geometric_stiffness(jg.instance, batch, step, out.forces.data(), guarded(out.stiffness));
        require_usable(r);
    }
    if (!any_force) return;  // the first step: no forces known yet

    add_lever_arms(model, state, s);
    // No joint needs stiffness: M and v* as they are.
    if (model.settings.stiffness_bound && surely_resolved(model, s, h)) return;

    // Per joint: K_rel and its block-diagonal split (D_s, and the explicit
    // change K_rel t), kept per side; D summed per element at full strength.
    for (uint32_t j = 0; j < model.joints.size(); ++j) {
        const JointRecord& record = model.joints[j];
        s.joint_split_active[j] = 0;
        if (!takes_split(model, record)) continue;
        const auto& out = s.joint_rows[record.group];
        const Eigen::Map<const Mat12> k(out.stiffness.data() + static_cast<size_t>(record.member) * 144);
        if (k.isZero(0.0)) continue;
        double* split = s.joint_split.data() + static_cast<size_t>(j) * kSplitSize;
        split_joint(k, out.pose1.data() + 7 * record.member, out.pose2.data() + 7 * record.member,
                    out.twist1.data() + 6 * record.member, out.twist2.data() + 6 * record.member, split);
        for (int side = 0; side < 2; ++side) {
            if (!stiffenable(model, side == 0 ? record.frame1 : record.frame2)) continue;
            add_to_element(model, s, j, side, 1.0, Eigen::Map<const Mat6>(split + 36 * side), nullptr);
        }
        s.joint_split_active[j] = 1;
    }
    stiffness_numbers(model, h, s);
    // Each joint at the strength its stiffer side needs (alpha, below).
    for (uint32_t j = 0; j < model.joints.size(); ++j) {
        if (!s.joint_split_active[j]) continue;
        const JointRecord& record = model.joints[j];
        double omega2 = 0.0;
        for (const Attachment* a : {&record.frame1, &record.frame2}) {
            if (stiffenable(model, *a)) omega2 = std::max(omega2, s.element_stiffness_number[a->element]);
        }
        const double alpha = stiffness_strength(omega2);
        s.joint_strength[j] = alpha;
        if (alpha == 0.0) continue;
        const double* split = s.joint_split.data() + static_cast<size_t>(j) * kSplitSize;
        for (int side = 0; side < 2; ++side) {
            if (!stiffenable(model, side == 0 ? record.frame1 : record.frame2)) continue;
            add_to_element(model, s, j, side, alpha, Eigen::Map<const Mat6>(split + 36 * side), split + 72 + 6 * side);
        }
    }

    // (M + h^2 D)(v+ - v) = h f - h^2 J_f^T K_rel t, into the unfactored blocks.
    const double h2 = h * h;
    for (uint32_t element = 0; element < model.element_count; ++element) {
        if (!s.stiffened[element]) {
            // M unchanged: its factor from the stiffness number is the block's.
            if (s.mass_factor_ready[element]) {
                const uint32_t nv = model.element_nv[element];
                std::copy_n(s.mass_factor.data() + s.mass_offset[element], nv * nv,
                            s.mass.data() + s.mass_offset[element]);
                s.mass_factored[element] = 1;
            }
            continue;
        }
        const uint32_t nv = model.element_nv[element];
        const Eigen::Map<const MatN> d(s.joint_stiffness.data() + s.mass_offset[element], nv, nv);
        Eigen::Map<MatN>(s.mass.data() + s.mass_offset[element], nv, nv) += h2 * d;
        const uint32_t offset = model.element_v_offset[element];
        Eigen::Map<VecN> rhs(s.v_free.data() + offset, nv);
        const Eigen::Map<const VecN> c(s.joint_stiffness_force.data() + offset, nv);
        if (s.momentum_rhs[element]) {
            rhs += h2 * (d * Eigen::Map<const VecN>(state.v.data() + offset, nv) - c);
        } else {
            rhs -= h2 * c;
        }
    }
}

}  // namespace pivot

// The cases of the conformance kit. Each has a name (the GoogleTest name and
// the key of the expectation files), a kind, and a one-line summary of what
// it checks and why; sdk/conformance/README.md lists them.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include <fmt/format.h>

#include "pivot/solver_support.hpp"
#include "pivot/conformance/kit.hpp"
#include "pivot/conformance/problems.hpp"
#include "pivot/conformance/random.hpp"
#include "pivot/conformance/siconos.hpp"

namespace pivot::conformance {

const char* kind_name(CaseKind kind) {
    switch (kind) {
        case CaseKind::solvable: return "solvable";
        case CaseKind::no_solution: return "no solution";
        case CaseKind::invalid_input: return "invalid input";
        case CaseKind::behaviour: return "behaviour";
    }
    return "?";
}

namespace {

using Problem = std::function<sdk::LcpData()>;

Case make(std::string name, CaseKind kind, std::string summary, Problem problem) {
    Case c;
    c.name = std::move(name);
    c.kind = kind;
    c.summary = std::move(summary);
    c.problem = std::move(problem);
    return c;
}

Case behaviour(std::string name, std::string summary, std::function<CaseResult(const Session&)> check) {
    Case c;
    c.name = std::move(name);
    c.kind = CaseKind::behaviour;
    c.summary = std::move(summary);
    c.behaviour = std::move(check);
    return c;
}

// GoogleTest names: letters, digits and '_' only.
std::string sanitized(const std::string& text) {
    std::string s = text;
    for (char& ch : s) {
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    }
    return s;
}

// ------------------------------------------------------------ problems
sdk::LcpData contacts(uint32_t count, uint64_t seed, bool friction = true, uint32_t joints = 0, uint32_t motors = 0,
                    uint32_t duplicated = 0, double regularization = 1e-4) {
    ContactScene scene;
    scene.contacts = count;
    scene.friction = friction;
    scene.ball_joints = joints;
    scene.motors = motors;
    scene.duplicated_contacts = duplicated;
    scene.regularization = regularization;
    scene.seed = seed;
    return random_contact_problem(scene);
}

sdk::LcpData rich_contacts() { return contacts(10, 1010, true, 2, 4); }
sdk::LcpData boxed_frictionless() { return contacts(10, 1020, false, 2, 4); }

// A small boxed problem without friction index whose last row is a motor
// (finite box), to break its bounds.
sdk::LcpData small_boxed() { return contacts(2, 2002, false, 1, 2); }

// ------------------------------------------------------------ helpers for behaviour cases
bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// Index of the first entry whose bits differ, for messages.
size_t first_difference(const std::vector<double>& a, const std::vector<double>& b) {
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) return i;
    }
    return std::min(a.size(), b.size());
}

// "" when two attempts are the same bit for bit, else what differs.
std::string difference(const Attempt& a, const Attempt& b) {
    if (a.returned != b.returned || a.report.status != b.report.status) {
        return fmt::format("statuses differ ({} / {} against {} / {})", static_cast<int>(a.returned),
                           solve_status_name(a.report.status), static_cast<int>(b.returned),
                           solve_status_name(b.report.status));
    }
    if (a.report.iterations != b.report.iterations) {
        return fmt::format("iteration counts differ ({} against {})", a.report.iterations, b.report.iterations);
    }
    if (a.usable && !same_bits(a.x, b.x)) {
        const size_t i = first_difference(a.x, b.x);
        return fmt::format("x differs first at x[{}]: {:.17g} against {:.17g}", i, a.x[i], b.x[i]);
    }
    return {};
}

// The first of the behaviour base problems the solver accepts: the richest
// (contacts with friction, joints and motors) first.
std::optional<sdk::LcpData> base_problem(const Session& s) {
    const Problem candidates[] = {rich_contacts, boxed_frictionless, [] { return random_spd_lcp(16, 16); },
                                  [] { return random_diagonally_dominant_lcp(16, 116); }};
    for (const auto& make_problem : candidates) {
        sdk::LcpData p = make_problem();
        if (s.incompatibility(p).empty()) return p;
    }
    return std::nullopt;
}

// A second problem of the same shape (for clone / reset: history from the
// first, then this one).
sdk::LcpData perturbed(const sdk::LcpData& p, uint64_t seed) {
    sdk::LcpData q = p;
    Random random(seed);
    for (double& v : q.b) v += random.uniform(-0.1, 0.1);
    return q;
}

bool has_cap(const Session& s, uint64_t cap) { return s.has(cap); }

CaseResult needs(const char* what) { return CaseResult::skip(fmt::format("the solver does not declare {}", what)); }

CaseResult no_base() { return CaseResult::skip("the solver accepts none of the behaviour base problems"); }

Outcome solved_outcome(const Session& s, const sdk::LcpData& given, const Attempt& a) {
    return judge_solvable(a, s.tolerance(given), s.claim_limit(given));
}

// ------------------------------------------------------------ behaviour cases
CaseResult determinism(const Session& s, const sdk::LcpData& problem) {
    if (!has_cap(s, PIVOT_SOLVER_CAP_DETERMINISTIC)) return needs("DETERMINISTIC");
    if (std::string why = s.incompatibility(problem); !why.empty()) return CaseResult::skip(why);
    const sdk::LcpData given = s.as_given(problem);
    const Attempt first = s.solve(s.instance(given), given);
    const Attempt second = s.solve(s.instance(given), given);
    if (std::string d = difference(first, second); !d.empty()) {
        return CaseResult::of({Verdict::fail, "two fresh instances, same problem: " + d});
    }
    return CaseResult::of({Verdict::pass, "two fresh instances gave the same bits: " + attempt_summary(first)});
}

CaseResult same_instance_twice(const Session& s) {
    const auto base = base_problem(s);
    if (!base) return no_base();
    const sdk::LcpData given = s.as_given(*base);
    SolverInstance solver = s.instance(given);
    const Attempt first = s.solve(solver, given);
    const Attempt second = s.solve(solver, given);
    const Outcome o1 = solved_outcome(s, given, first);
    const Outcome o2 = solved_outcome(s, given, second);
    if (o1.verdict != Verdict::pass) return CaseResult::of({o1.verdict, "first solve: " + o1.detail});
    if (o2.verdict != Verdict::pass) return CaseResult::of({o2.verdict, "second solve on the same instance: " + o2.detail});
    return CaseResult::of({Verdict::pass, "solved twice on one instance: " + attempt_summary(second)});
}

CaseResult clone_continues_identically(const Session& s) {
    if (s.functions().instance.clone == nullptr) {
        return CaseResult::skip("the solver has no clone function (instances cannot be cloned)");
    }
    const auto base = base_problem(s);
    if (!base) return no_base();
    const sdk::LcpData given = s.as_given(*base);
    const sdk::LcpData next = perturbed(given, 77);
    SolverInstance original = s.instance(given);
    const Attempt history = s.solve(original, given);
    SolverInstance copy = original.clone();
    const bool warm = has_cap(s, PIVOT_SOLVER_CAP_WARM_START) && history.usable;
    const Attempt a = s.solve(original, next, warm ? &history.x : nullptr);
    const Attempt b = s.solve(copy, next, warm ? &history.x : nullptr);
    const Outcome solved = solved_outcome(s, next, b);
    if (solved.verdict != Verdict::pass) return CaseResult::of({solved.verdict, "the clone: " + solved.detail});
    if (has_cap(s, PIVOT_SOLVER_CAP_DETERMINISTIC)) {
        if (std::string d = difference(a, b); !d.empty()) {
            return CaseResult::of({Verdict::fail, "original and clone differ on the next solve: " + d});
        }
    }
    return CaseResult::of({Verdict::pass, fmt::format("the clone solved the next problem{}: {}",
                                                      has_cap(s, PIVOT_SOLVER_CAP_DETERMINISTIC)
                                                          ? " with the original's bits"
                                                          : "",
                                                      attempt_summary(b))});
}

CaseResult reset_forgets_history(const Session& s) {
    if (!has_cap(s, PIVOT_SOLVER_CAP_DETERMINISTIC)) return needs("DETERMINISTIC");
    const auto base = base_problem(s);
    if (!base) return no_base();
    const sdk::LcpData given = s.as_given(*base);
    const sdk::LcpData next = perturbed(given, 78);
    SolverInstance used = s.instance(given);
    (void)s.solve(used, given);
    used.reset();
    const Attempt a = s.solve(used, next);
    const Attempt b = s.solve(s.instance(given), next);
    if (std::string d = difference(a, b); !d.empty()) {
        return CaseResult::of({Verdict::fail, "after reset() the instance differs from a fresh one: " + d});
    }
    return CaseResult::of({Verdict::pass, "after reset() the instance behaves like a fresh one: " + attempt_summary(a)});
}

CaseResult reserve_gives_same_bits(const Session& s) {
    if (s.functions().reserve == nullptr) return CaseResult::skip("the solver has no reserve function");
    if (!has_cap(s, PIVOT_SOLVER_CAP_DETERMINISTIC)) return needs("DETERMINISTIC");
    const auto base = base_problem(s);
    if (!base) return no_base();
    const sdk::LcpData given = s.as_given(*base);
    SolverInstance reserved = s.instance(given);
    const auto nnz = static_cast<uint32_t>(given.has_sparse() ? given.values.size() : size_t{given.n} * given.n);
    const pivot_status r = s.functions().reserve(reserved.handle(), given.n, nnz);
    if (r != PIVOT_OK && r != PIVOT_WARNING) {
        return CaseResult::of({Verdict::fail, fmt::format("reserve({}, {}) failed with status {}", given.n, nnz,
                                                          static_cast<int>(r))});
    }
    const Attempt a = s.solve(reserved, given);
    const Attempt b = s.solve(s.instance(given), given);
    if (std::string d = difference(a, b); !d.empty()) {
        return CaseResult::of({Verdict::fail, "with and without reserve() the results differ: " + d});
    }
    return CaseResult::of({Verdict::pass, "same bits with and without reserve(): " + attempt_summary(a)});
}

CaseResult reserve_smaller_then_grow(const Session& s) {
    if (s.functions().reserve == nullptr) return CaseResult::skip("the solver has no reserve function");
    const auto base = base_problem(s);
    if (!base) return no_base();
    const sdk::LcpData given = s.as_given(*base);
    SolverInstance solver = s.instance(given);
    const pivot_status r = s.functions().reserve(solver.handle(), 1, 1);
    if (r != PIVOT_OK && r != PIVOT_WARNING) {
        return CaseResult::of({Verdict::fail, fmt::format("reserve(1, 1) failed with status {}", static_cast<int>(r))});
    }
    const Attempt a = s.solve(solver, given);
    const Outcome o = solved_outcome(s, given, a);
    return CaseResult::of({o.verdict, fmt::format("{} rows after reserve(1, 1): {}", given.n, o.detail)});
}

CaseResult warm_start_from_solution(const Session& s) {
    if (!has_cap(s, PIVOT_SOLVER_CAP_WARM_START)) return needs("WARM_START");
    const auto base = base_problem(s);
    if (!base) return no_base();
    const sdk::LcpData given = s.as_given(*base);
    const Attempt cold = s.solve(s.instance(given), given);
    const Outcome cold_outcome = solved_outcome(s, given, cold);
    if (cold_outcome.verdict != Verdict::pass) {
        return CaseResult::of({cold_outcome.verdict, "the cold solve that gives the warm start: " + cold_outcome.detail});
    }
    const Attempt warm = s.solve(s.instance(given), given, &cold.x);
    const Outcome o = solved_outcome(s, given, warm);
    return CaseResult::of({o.verdict, fmt::format("warm start from the solution ({} iterations cold): {}",
                                                  cold.report.iterations, o.detail)});
}

CaseResult warm_start_from_poor_guess(const Session& s) {
    if (!has_cap(s, PIVOT_SOLVER_CAP_WARM_START)) return needs("WARM_START");
    const auto base = base_problem(s);
    if (!base) return no_base();
    const sdk::LcpData given = s.as_given(*base);
    // A guess far from the solution but within the bounds: rows without a
    // friction index first, then the friction rows within lo|x_j|..hi|x_j|.
    Random random(4242);
    std::vector<double> guess(given.n);
    for (double& v : guess) v = random.uniform(-10.0, 10.0);
    sdk::clamp_to_own_bounds(given.view(), guess.data());
    const Attempt a = s.solve(s.instance(given), given, &guess);
    const Outcome o = solved_outcome(s, given, a);
    return CaseResult::of({o.verdict, "warm start from a poor guess: " + o.detail});
}

CaseResult time_budget_tiny(const Session& s) {
    if (!has_cap(s, PIVOT_SOLVER_CAP_TIME_BUDGET)) return needs("TIME_BUDGET");
    const Problem candidates[] = {[] { return contacts(40, 4040); }, [] { return contacts(40, 4041, false, 4, 8); },
                                  [] { return random_spd_lcp(64, 64); },
                                  [] { return random_diagonally_dominant_lcp(64, 164); }};
    for (const auto& make_problem : candidates) {
        const sdk::LcpData p = make_problem();
        if (!s.incompatibility(p).empty()) continue;
        const sdk::LcpData given = s.as_given(p);
        const Attempt a = s.solve(s.instance(given), given, nullptr, 1e-7);
        const Outcome o = solved_outcome(s, given, a);
        if (o.verdict == Verdict::fake) return CaseResult::of(o);
        // Stopping early is what a budget of 0.1 us asks for; only a false
        // claim fails. (No timing is asserted: timing is for benchmarks.)
        return CaseResult::of({Verdict::pass, "with a 0.1 us budget: " + attempt_summary(a)});
    }
    return no_base();
}

CaseResult matrix_form(const Session& s, bool both) {
    if (!has_cap(s, PIVOT_SOLVER_CAP_DENSE) || !has_cap(s, PIVOT_SOLVER_CAP_SPARSE)) {
        return CaseResult::skip("the solver does not declare both DENSE and SPARSE (it is always given its one form)");
    }
    const auto base = base_problem(s);
    if (!base) return no_base();
    sdk::LcpData given = *base;
    given.make_sparse();
    if (!both) given.dense.clear();
    const Attempt a = s.solve(s.instance(given), given);
    const Outcome o = solved_outcome(s, given, a);
    return CaseResult::of({o.verdict, std::string(both ? "dense and CSC given: " : "only CSC given: ") + o.detail});
}

CaseResult empty_problem(const Session& s) {
    sdk::LcpData p = sdk::LcpData::standard(0, {}, {});
    p.matrix_properties = PIVOT_MATRIX_SYMMETRIC;
    const sdk::LcpData given = s.as_given(p);
    const Attempt a = s.solve(s.instance(given), given);
    if (a.usable && a.report.status == PIVOT_SOLVE_CONVERGED) {
        return CaseResult::of({Verdict::pass, "n = 0 solved: " + attempt_summary(a)});
    }
    return CaseResult::of({Verdict::fail, "n = 0 is a valid problem (plugin_solver.h) and must be CONVERGED: " +
                                              attempt_summary(a)});
}

// ------------------------------------------------------------ invalid input
// A copy of `p` broken by `breaker`; the SYMMETRIC hint is kept (NaN is
// placed symmetrically, but NaN != NaN would hide the symmetry).
Problem broken(Problem base, std::function<void(sdk::LcpData&)> breaker) {
    return [base = std::move(base), breaker = std::move(breaker)] {
        sdk::LcpData p = base();
        breaker(p);
        return p;
    };
}

void set_symmetric_pair(sdk::LcpData& p, uint32_t i, uint32_t j, double v) {
    p.dense[i + static_cast<size_t>(j) * p.n] = v;
    p.dense[j + static_cast<size_t>(i) * p.n] = v;
}

// The last row of small_boxed() is a motor with a finite box.
uint32_t motor_row(const sdk::LcpData& p) { return p.n - 1; }

// A tangent row of contacts(2, ...) with friction: row 1 (findex 0).
constexpr uint32_t friction_row = 1;

// ------------------------------------------------------------ data files
// A pivot-lcp/1 file, read by the engine's own reader (pivot_lcp_read_file).
sdk::LcpData read_lcp_file(const std::filesystem::path& file) {
    pivot_lcp* lcp = nullptr;
    if (pivot_lcp_read_file(file.string().c_str(), &lcp) != PIVOT_OK) throw Error(last_error());
    sdk::LcpData data = sdk::LcpData::copy_of(*pivot_lcp_problem_of(lcp));
    pivot_lcp_destroy(lcp);
    return data;
}

// Siconos LCPs known to have no solution (proof in the README of
// tests/data/siconos).
const std::set<std::string> siconos_lcp_without_solution = {"lcp_Pang_isolated_sol_perturbed"};

std::string siconos_lcp_summary(const std::string& stem) {
    // What each file is (its own trailing comments, Cottle, Pang & Stone
    // 1992 = CPS, and the kit's tests of the reader for the solutions).
    static const std::map<std::string, std::string> summaries = {
        {"lcp_CPS_1", "A = [1 1; 1 1] (PSD, singular): the solutions are x1 + x2 = 1 (CPS Remark 4.1.14)"},
        {"lcp_CPS_2", "zero diagonal, not symmetric (CPS Example 4.4.7): unique solution (0, 1, 3)"},
        {"lcp_CPS_3", "bimatrix game [0 A; B' 0], b = -1 (CPS Example 4.4.23): three solutions"},
        {"lcp_CPS_4", "optimality conditions of a convex QP (PSD, not symmetric): solution (2, 2, 2, 92)"},
        {"lcp_CPS_4bis", "the same QP with another b: solution (3, 3, 0, 83), a degenerate row"},
        {"lcp_CPS_5", "A = [1 -1; -1 1] (PSD, singular), b = (1, -1) (CPS Example 4.4.16): solution (0, 1)"},
        {"lcp_Pang_isolated_sol", "zero diagonal, not symmetric: the isolated solution (1, 0, 0)"},
        {"lcp_Pang_isolated_sol_perturbed", "infeasible: row 0 reads w0 = -x1 - x2 - 1e-4 < 0"},
        {"lcp_inf_sol_perturbed", "zero diagonal: a ray of solutions (1, t, t + 1e-4), t >= 0"},
        {"lcp_deudeu", "2x2 symmetric positive definite: solution (4/3, 7/3)"},
        {"lcp_deudeu_block", "lcp_deudeu in sparse-block storage"},
        {"lcp_enum_fails", "9x9, not symmetric, zero diagonal entries, solution ~1e-4 (fails Siconos' enumeration)"},
        {"lcp_exp_murty", "Murty's exponential example for Lemke, n = 6, b = -1: solution (0, ..., 0, 1)"},
        {"lcp_exp_murty2", "Murty's example, n = 6, b_i = -(2^7 - 2^(i+1)): solution (0, ..., 0, 64)"},
        {"lcp_mmc", "26x26 symmetric positive definite, diagonal ~1e5 and b ~1: badly scaled"},
        {"lcp_ortiz", "4x4, not symmetric: solution (2/3, 0, 1/3, 0)"},
        {"lcp_ortiz_block", "lcp_ortiz in sparse-block storage (2x2 blocks)"},
        {"lcp_tobenna", "40x40 game LCP [P -E'; E 0], b = (0, -1): zero diagonal block, degenerate"},
        {"lcp_trivial", "diagonal 1..9, b = -1: solution x_i = 1/i"},
        {"lcp_trivial_block", "lcp_trivial in sparse-block storage (1x1 blocks)"},
    };
    const auto it = summaries.find(stem);
    return it != summaries.end() ? it->second : std::string("Siconos numerics test LCP");
}

std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir, const std::string& extension) {
    std::vector<std::filesystem::path> files;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
        if (entry.is_regular_file() && entry.path().extension() == extension) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

void add_file_cases(std::vector<Case>& cases, const std::filesystem::path& data_dir, std::vector<std::string>* notes) {
    const auto note = [&](const std::string& text) {
        if (notes != nullptr) notes->push_back(text);
    };
    const std::filesystem::path bench = data_dir / "lcp-bench";
    if (!std::filesystem::is_directory(bench)) note(fmt::format("{} not found: no lcp-bench cases", bench.string()));
    for (const auto& file : files_in(bench, ".txt")) {
        cases.push_back(make("bench_" + sanitized(file.stem().string()), CaseKind::solvable,
                             "lcp-bench contact problem (pivot-lcp/1; A = J M^-1 J^T + eps I), " + file.filename().string(),
                             [file] { return read_lcp_file(file); }));
    }
    const std::filesystem::path lcp = data_dir / "siconos" / "lcp";
    if (!std::filesystem::is_directory(lcp)) note(fmt::format("{} not found: no Siconos LCP cases", lcp.string()));
    for (const auto& file : files_in(lcp, ".dat")) {
        const std::string stem = file.stem().string();
        const bool no_solution = siconos_lcp_without_solution.count(stem) > 0;
        cases.push_back(make("siconos_" + sanitized(stem), no_solution ? CaseKind::no_solution : CaseKind::solvable,
                             siconos_lcp_summary(stem) + ", " + file.filename().string(),
                             [file] { return read_siconos_lcp(file); }));
    }
    const std::filesystem::path fc = data_dir / "siconos" / "fc3d";
    if (!std::filesystem::is_directory(fc)) note(fmt::format("{} not found: no Siconos friction-contact cases", fc.string()));
    for (const auto& file : files_in(fc, ".dat")) {
        const std::string stem = file.stem().string();
        cases.push_back(make("siconos_fc_" + sanitized(stem), CaseKind::solvable,
                             "Siconos frictional contact as a boxed problem (friction pyramid), " +
                                 file.filename().string(),
                             [file] {
                                 sdk::LcpData p = friction_pyramid_problem(read_siconos_friction_contact(file));
                                 // Symmetric to the rounding of its assembly:
                                 // made exactly so, so that the hint holds.
                                 if (relative_asymmetry(p) <= 1e-12) symmetrize(p);
                                 return p;
                             }));
        if (!siconos_friction_contact_is_nonsymmetric(stem)) continue;
        cases.push_back(make("siconos_fc_" + sanitized(stem) + "_symmetrized", CaseKind::solvable,
                             "the same with A = (M + M')/2, as an engine gives a symmetric solver (M's asymmetry "
                             "is assembly error), " + file.filename().string(),
                             [file] {
                                 sdk::LcpData p = friction_pyramid_problem(read_siconos_friction_contact(file));
                                 symmetrize(p);
                                 return p;
                             }));
    }
}

}  // namespace

std::vector<Case> conformance_cases(const std::filesystem::path& data_dir, std::vector<std::string>* notes) {
    std::vector<Case> cases;
    const auto solvable = [&](std::string name, std::string summary, Problem problem) {
        cases.push_back(make(std::move(name), CaseKind::solvable, std::move(summary), std::move(problem)));
    };
    const auto no_solution = [&](std::string name, std::string summary, Problem problem) {
        cases.push_back(make(std::move(name), CaseKind::no_solution, std::move(summary), std::move(problem)));
    };
    const auto invalid = [&](std::string name, std::string summary, Problem problem) {
        cases.push_back(make(std::move(name), CaseKind::invalid_input, std::move(summary), std::move(problem)));
    };

    // ---- random P-matrix standard LCPs: a unique solution exists.
    for (uint32_t n : {4u, 16u, 64u}) {
        solvable(fmt::format("spd_n{}", n), "random symmetric positive definite standard LCP (P-matrix)",
                 [n] { return random_spd_lcp(n, n); });
    }
    for (uint32_t n : {4u, 16u, 64u}) {
        solvable(fmt::format("diagonally_dominant_n{}", n),
                 "random non-symmetric diagonally dominant standard LCP (P-matrix)",
                 [n] { return random_diagonally_dominant_lcp(n, 100 + n); });
    }
    // ---- contact problems as an engine builds them.
    for (uint32_t nc : {2u, 10u, 40u}) {
        solvable(fmt::format("contacts_nc{}", nc),
                 "random contacts with friction index (J M^-1 J^T + eps I, friction pyramid)",
                 [nc] { return contacts(nc, 1000 + nc); });
    }
    solvable("contacts_frictionless_nc10", "random frictionless contacts: a contact-structured standard LCP",
             [] { return contacts(10, 1110, false); });
    solvable("contacts_joints_nc10", "contacts with friction plus 3 ball joints (9 free rows)",
             [] { return contacts(10, 1210, true, 3, 0); });
    solvable("contacts_joints_motors_nc10", "contacts with friction, 2 ball joints and 4 motors with finite boxes",
             rich_contacts);
    solvable("boxed_frictionless_nc10", "frictionless contacts, 2 ball joints, 4 motors: boxed, no friction index",
             boxed_frictionless);
    // ---- degenerate problems.
    solvable("degenerate_zero_b_n8", "b = 0: solution x = 0 with every row degenerate (x_i = w_i = 0)",
             [] { return degenerate_zero_b_lcp(8, 8); });
    solvable("degenerate_constructed_n18", "a third of the rows degenerate at the known unique solution",
             [] { return degenerate_constructed_lcp(18, 18); });
    // Solvable when the problem without the copies is (6 contacts on 3
    // bodies: 18 rows on 18 degrees of freedom, generically definite):
    // its solution with each duplicated impulse split in halves solves it.
    solvable("duplicate_contacts_nc6", "3 of 6 contacts duplicated, no regularization: A singular PSD, friction index",
             [] { return contacts(6, 606, true, 0, 0, 3, 0.0); });
    solvable("duplicate_contacts_frictionless_nc6", "3 of 6 frictionless contacts duplicated: singular PSD standard LCP",
             [] { return contacts(6, 616, false, 0, 0, 3, 0.0); });
    solvable("redundant_contacts_frictionless_nc40",
             "40 frictionless contacts on 4 bodies, no regularization: singular PSD (rank <= 24), feasible", [] {
                 ContactScene scene;
                 scene.contacts = 40;
                 scene.bodies = 4;
                 scene.friction = false;
                 scene.regularization = 0.0;
                 scene.penetration_bias = false;  // keeps it feasible (problems.hpp)
                 scene.seed = 4000;
                 return random_contact_problem(scene);
             });
    // ---- cycling-prone and exponential problems for pivoting rules.
    solvable("chvatal_cycling", "Chvatal's cycling LP (1983, p. 31) as an LCP: degenerate, skew-symmetric",
             chvatal_cycling_lcp);
    solvable("murty_n10", "Murty's exponential example (2^n - 1 Lemke pivots), n = 10",
             [] { return murty_lcp(10); });
    // ---- no solution: must be reported, never faked.
    no_solution("infeasible_psd", "A = [1 -1; -1 1], b = (-1, -1): w1 + w2 = -2, infeasible", infeasible_psd_lcp);
    no_solution("infeasible_indefinite", "A = diag(-1, 1), b = (-1, -1): w1 = -x1 - 1 < 0, infeasible",
                infeasible_indefinite_lcp);
    no_solution("infeasible_skew", "A = [0 1; -1 0], b = (-1, -1): w2 = -x1 - 1 < 0, infeasible", infeasible_skew_lcp);
    no_solution("inconsistent_free_rows", "A = [1 1; 1 1], free rows, b = (1, -1): A x = -b has no solution",
                inconsistent_free_rows_problem);
    no_solution("inconsistent_joint_rows_nc4",
                "frictionless contacts and a ball joint duplicated with different b: no solution", [] {
                    ContactScene scene;
                    scene.contacts = 4;
                    scene.friction = false;
                    scene.ball_joints = 1;
                    scene.regularization = 0.0;
                    scene.inconsistent_duplicate_joint = true;
                    scene.seed = 404;
                    return random_contact_problem(scene);
                });
    // ---- invalid input: must be refused with INVALID_PROBLEM.
    const Problem standard_base = [] { return random_spd_lcp(6, 6); };
    invalid("nan_in_b", "b[2] = NaN", broken(standard_base, [](sdk::LcpData& p) { p.b[2] = NAN; }));
    invalid("inf_in_b", "b[2] = +inf", broken(standard_base, [](sdk::LcpData& p) { p.b[2] = HUGE_VAL; }));
    invalid("nan_in_A_diagonal", "A(3, 3) = NaN", broken(standard_base, [](sdk::LcpData& p) {
                set_symmetric_pair(p, 3, 3, NAN);
            }));
    invalid("nan_in_A_off_diagonal", "A(1, 4) = A(4, 1) = NaN", broken(standard_base, [](sdk::LcpData& p) {
                set_symmetric_pair(p, 1, 4, NAN);
            }));
    invalid("inf_in_A_off_diagonal", "A(0, 5) = A(5, 0) = +inf", broken(standard_base, [](sdk::LcpData& p) {
                set_symmetric_pair(p, 0, 5, HUGE_VAL);
            }));
    invalid("nan_in_lo", "lo = NaN on a motor row",
            broken(small_boxed, [](sdk::LcpData& p) { p.lo[motor_row(p)] = NAN; }));
    invalid("nan_in_hi", "hi = NaN on a motor row",
            broken(small_boxed, [](sdk::LcpData& p) { p.hi[motor_row(p)] = NAN; }));
    invalid("lo_plus_inf", "lo = +inf on a motor row (an empty interval)",
            broken(small_boxed, [](sdk::LcpData& p) { p.lo[motor_row(p)] = HUGE_VAL; }));
    invalid("hi_minus_inf", "hi = -inf on a motor row (an empty interval)",
            broken(small_boxed, [](sdk::LcpData& p) { p.hi[motor_row(p)] = -HUGE_VAL; }));
    invalid("lo_above_hi", "lo = 1 > hi = -1 on a motor row", broken(small_boxed, [](sdk::LcpData& p) {
                p.lo[motor_row(p)] = 1.0;
                p.hi[motor_row(p)] = -1.0;
            }));
    const Problem friction_base = [] { return contacts(2, 2020); };
    invalid("findex_out_of_range", "findex = n on a friction row",
            broken(friction_base, [](sdk::LcpData& p) { p.findex[friction_row] = static_cast<int32_t>(p.n); }));
    invalid("findex_self", "findex_i = i on a friction row",
            broken(friction_base,
                   [](sdk::LcpData& p) { p.findex[friction_row] = static_cast<int32_t>(friction_row); }));
    invalid("findex_below_minus_one", "findex = -2 on a friction row",
            broken(friction_base, [](sdk::LcpData& p) { p.findex[friction_row] = -2; }));
    // ---- behaviour of instances.
    cases.push_back(behaviour("empty_problem", "n = 0 is a valid problem: CONVERGED", empty_problem));
    cases.push_back(behaviour("determinism_standard", "two fresh instances, same standard LCP: same bits",
                              [](const Session& s) { return determinism(s, random_spd_lcp(16, 16)); }));
    cases.push_back(behaviour("determinism_contacts", "two fresh instances, same contact problem: same bits",
                              [](const Session& s) { return determinism(s, rich_contacts()); }));
    cases.push_back(behaviour("same_instance_twice", "one instance solves the same problem twice",
                              same_instance_twice));
    cases.push_back(behaviour("clone_continues_identically", "a clone solves the next problem like the original",
                              clone_continues_identically));
    cases.push_back(behaviour("reset_forgets_history", "after reset() an instance behaves like a fresh one",
                              reset_forgets_history));
    cases.push_back(behaviour("reserve_gives_same_bits", "reserve() changes no result", reserve_gives_same_bits));
    cases.push_back(behaviour("reserve_smaller_then_grow", "a problem larger than reserved is still solved",
                              reserve_smaller_then_grow));
    cases.push_back(behaviour("warm_start_from_solution", "warm started at the solution, it returns a solution",
                              warm_start_from_solution));
    cases.push_back(behaviour("warm_start_from_poor_guess", "warm started far from the solution, it still solves",
                              warm_start_from_poor_guess));
    cases.push_back(behaviour("time_budget_tiny", "a 0.1 us budget: stop early or solve, never claim falsely",
                              time_budget_tiny));
    cases.push_back(behaviour("matrix_sparse_only", "declares DENSE and SPARSE: solves when given only CSC",
                              [](const Session& s) { return matrix_form(s, false); }));
    cases.push_back(behaviour("matrix_dense_and_sparse", "declares DENSE and SPARSE: solves when given both",
                              [](const Session& s) { return matrix_form(s, true); }));

    add_file_cases(cases, data_dir, notes);
    return cases;
}

}  // namespace pivot::conformance

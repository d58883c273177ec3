#pragma once
// How the kit decides: the independent residual, the verdict of one solve,
// and the expectation files. Pure functions, so that the kit's own tests
// check them on made-up solver answers.
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <pivot/plugin_solver.h>

#include <pivot/lcp_data.hpp>

namespace pivot::conformance {

// The natural-map residual max_i |x_i - mid(l_i, u_i, x_i - w_i)| with
// w = A x + b, computed here from the sdk::LcpData (dense A if present, else
// CSC), independently of the solver and of the host: the products are
// accumulated in long double, and any NaN or Inf (in x, w or a bound) makes
// the residual +inf, never a finite number that hides it.
double independent_residual(const sdk::LcpData& problem, const std::vector<double>& x);

// The residual a solution must reach: tolerance x max(1, max_i |b_i|,
// max_i |b_i| / A_ii (over A_ii > 0)). The natural-map residual has the
// units of x on rows at a bound and of w on the others; |b_i| / A_ii is the
// size of x_i that cancels b_i on its own row (one Jacobi step from 0), so
// the scale follows the problem's units: a Delassus matrix of 1e-4 with
// b ~ 10 has impulses ~1e5, and 1e-8 of that is what double precision
// gives, not 1e-8 absolute.
double case_tolerance(const sdk::LcpData& problem, double tolerance);

// What the solver returned for one solve, as the host saw it.
struct Attempt {
    pivot_status returned = PIVOT_OK;  // the plugin's return code
    bool usable = false;               // checked_solve: OK/WARNING, finite x in its bounds
    std::string host_message;          // checked_solve's message when not usable
    pivot_solve_report report{};       // the solver's own report
    std::vector<double> x;
    double residual = HUGE_VAL;        // independent_residual(x); +inf when not usable
    double seconds = 0.0;              // wall time of the call
};

enum class Verdict {
    pass,  // what the case asks for
    fail,  // not achieved, and honestly reported as such
    fake   // a claim the result contradicts: a "solution" that is not one
};

struct Outcome {
    Verdict verdict = Verdict::pass;
    std::string detail;  // one sentence: what happened
};

const char* verdict_name(Verdict v);
const char* solve_status_name(uint32_t status);

// One line describing an attempt: status, iterations, residuals, time.
std::string attempt_summary(const Attempt& a);

// A problem with a solution: solved when usable and residual <= tolerance.
// A fake: the solver reports CONVERGED, or a report residual within
// tolerance, while the independent residual is above claim_limit.
Outcome judge_solvable(const Attempt& a, double tolerance, double claim_limit);

// A problem without a solution: must be reported as not solved (not usable,
// or a status other than CONVERGED); a CONVERGED is a fake. When not
// usable, the report must say why (a message).
Outcome judge_no_solution(const Attempt& a);

// An invalid problem (NaN, Inf, empty bounds, bad friction index): must be
// refused with status INVALID_PROBLEM and a message. Accepting it (OK or
// WARNING) with a finite x is a fake; refusing it otherwise, or returning a
// non-finite x (which the host's checks refuse), is an honest failure.
Outcome judge_invalid_input(pivot_status returned, const pivot_solve_report& report, const std::vector<double>& x);

// ---------------------------------------------------------------- expectations
// The cases a solver is known to fail, one per line: `case_name  reason`.
// '#' starts a comment; blank lines are ignored; the reason is required.
struct Expectations {
    std::string file;
    std::map<std::string, std::string> reasons;  // case name -> why it fails

    const std::string* reason(const std::string& name) const;
};
// Throws pivot::Error naming the file and line of a malformed entry.
Expectations read_expectations(const std::filesystem::path& file);

}  // namespace pivot::conformance

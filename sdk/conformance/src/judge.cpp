#include "pivot/conformance/judge.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "pivot/conformance/error.hpp"

namespace pivot::conformance {

double independent_residual(const sdk::LcpData& p, const std::vector<double>& x) {
    const uint32_t n = p.n;
    if (x.size() != n) return HUGE_VAL;
    std::vector<long double> w(p.b.begin(), p.b.end());
    if (!p.dense.empty()) {
        for (uint32_t j = 0; j < n; ++j) {
            for (uint32_t i = 0; i < n; ++i) {
                w[i] += static_cast<long double>(p.dense[i + static_cast<size_t>(j) * n]) * x[j];
            }
        }
    } else {
        for (uint32_t j = 0; j < n; ++j) {
            for (int32_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) {
                w[static_cast<size_t>(p.row_index[k])] += static_cast<long double>(p.values[k]) * x[j];
            }
        }
    }
    double residual = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        long double lower = p.lo[i];
        long double upper = p.hi[i];
        const int32_t j = p.findex.empty() ? -1 : p.findex[i];
        if (j >= 0) {
            if (static_cast<uint32_t>(j) >= n) return HUGE_VAL;
            const long double scale = std::fabs(static_cast<long double>(x[static_cast<size_t>(j)]));
            lower *= scale;
            upper *= scale;
        }
        const long double xi = x[i];
        const long double v = xi - w[i];
        if (std::isnan(v) || std::isnan(lower) || std::isnan(upper) || !std::isfinite(xi) || !std::isfinite(w[i])) {
            return HUGE_VAL;
        }
        const long double projected = v < lower ? lower : (v > upper ? upper : v);
        const long double r = std::fabs(xi - projected);
        if (!std::isfinite(r)) return HUGE_VAL;
        residual = std::max(residual, static_cast<double>(r));
    }
    return residual;
}

double case_tolerance(const sdk::LcpData& p, double tolerance) {
    double scale = 1.0;
    for (uint32_t i = 0; i < p.n; ++i) {
        const double b = std::abs(p.b[i]);
        if (!std::isfinite(b)) continue;
        scale = std::max(scale, b);
        double diagonal = 0.0;
        if (!p.dense.empty()) {
            diagonal = p.dense[i + static_cast<size_t>(i) * p.n];
        } else if (p.has_sparse()) {
            for (int32_t k = p.col_start[i]; k < p.col_start[i + 1]; ++k) {
                if (p.row_index[k] == static_cast<int32_t>(i)) diagonal = p.values[k];
            }
        }
        if (diagonal > 0.0 && std::isfinite(diagonal)) scale = std::max(scale, b / diagonal);
    }
    return tolerance * scale;
}

const char* verdict_name(Verdict v) {
    switch (v) {
        case Verdict::pass: return "pass";
        case Verdict::fail: return "fail";
        case Verdict::fake: return "FAKE";
    }
    return "?";
}

const char* solve_status_name(uint32_t status) {
    switch (status) {
        case PIVOT_SOLVE_CONVERGED: return "CONVERGED";
        case PIVOT_SOLVE_MAX_ITERATIONS: return "MAX_ITERATIONS";
        case PIVOT_SOLVE_TIME_BUDGET: return "TIME_BUDGET";
        case PIVOT_SOLVE_RAY_TERMINATION: return "RAY_TERMINATION";
        case PIVOT_SOLVE_INFEASIBLE: return "INFEASIBLE";
        case PIVOT_SOLVE_UNBOUNDED: return "UNBOUNDED";
        case PIVOT_SOLVE_NUMERICAL_ERROR: return "NUMERICAL_ERROR";
        case PIVOT_SOLVE_INVALID_PROBLEM: return "INVALID_PROBLEM";
        case PIVOT_SOLVE_UNSUPPORTED: return "UNSUPPORTED";
        case PIVOT_SOLVE_OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    }
    return "an unknown status";
}

namespace {

const char* status_word(pivot_status s) {
    switch (s) {
        case PIVOT_OK: return "OK";
        case PIVOT_WARNING: return "WARNING";
        case PIVOT_DISCARD: return "DISCARD";
        case PIVOT_ERROR: return "ERROR";
        case PIVOT_FATAL: return "FATAL";
    }
    return "?";
}

std::string message_of(const pivot_solve_report& r) { return r.message[0] != '\0' ? r.message : "(no message)"; }

}  // namespace

std::string attempt_summary(const Attempt& a) {
    double largest = 0.0;
    for (double v : a.x) largest = std::max(largest, std::abs(v));
    std::string s = fmt::format("returned {} / {}, {} iterations, reported residual {:.3g}, independent residual {}, "
                                "max|x| {:.3g}, {:.3f} ms",
                                status_word(a.returned), solve_status_name(a.report.status), a.report.iterations,
                                a.report.residual, a.usable ? fmt::format("{:.3g}", a.residual) : std::string("-"),
                                largest, a.seconds * 1e3);
    if (a.report.message[0] != '\0') s += fmt::format("; message: \"{}\"", a.report.message);
    if (!a.usable && !a.host_message.empty()) s += fmt::format("; host: {}", a.host_message);
    return s;
}

Outcome judge_solvable(const Attempt& a, double tolerance, double claim_limit) {
    if (!a.usable) {
        return {Verdict::fail, fmt::format("not solved: the result is not usable ({})", attempt_summary(a))};
    }
    const bool claims = a.report.status == PIVOT_SOLVE_CONVERGED || a.report.residual <= tolerance;
    if (claims && a.residual > claim_limit) {
        return {Verdict::fake, fmt::format("claims a solution (status {}, reported residual {:.3g}) but the "
                                           "independent residual is {:.3g} > {:.3g}",
                                           solve_status_name(a.report.status), a.report.residual, a.residual,
                                           claim_limit)};
    }
    if (a.residual <= tolerance) {
        return {Verdict::pass, fmt::format("solved: residual {:.3g} <= {:.3g} ({})", a.residual, tolerance, attempt_summary(a))};
    }
    return {Verdict::fail, fmt::format("not solved: independent residual {:.3g} > tolerance {:.3g} ({})", a.residual,
                                       tolerance, attempt_summary(a))};
}

Outcome judge_no_solution(const Attempt& a) {
    if (a.usable && a.report.status == PIVOT_SOLVE_CONVERGED) {
        return {Verdict::fake, fmt::format("reports CONVERGED on a problem without a solution (independent residual "
                                           "{:.3g})",
                                           a.residual)};
    }
    if (a.report.message[0] == '\0') {
        return {Verdict::fail, fmt::format("reported as not solved ({}), but the report has no message saying why "
                                           "(plugin_solver.h: report.message)",
                                           solve_status_name(a.report.status))};
    }
    return {Verdict::pass, fmt::format("reported as not solved: {}", attempt_summary(a))};
}

Outcome judge_invalid_input(pivot_status returned, const pivot_solve_report& report, const std::vector<double>& x) {
    const bool accepted = returned == PIVOT_OK || returned == PIVOT_WARNING;
    if (accepted) {
        const bool finite = std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); });
        if (finite) {
            return {Verdict::fake, fmt::format("accepted an invalid problem: returned {} with status {} and a finite "
                                               "x, a \"solution\" of a problem that has none",
                                               status_word(returned), solve_status_name(report.status))};
        }
        return {Verdict::fail, fmt::format("returned {} ({}) with a non-finite x: the host's checks refuse it, but "
                                           "the solver must refuse invalid input itself (INVALID_PROBLEM)",
                                           status_word(returned), solve_status_name(report.status))};
    }
    if (report.status != PIVOT_SOLVE_INVALID_PROBLEM) {
        return {Verdict::fail, fmt::format("refused, but with status {} instead of INVALID_PROBLEM: {}",
                                           solve_status_name(report.status), message_of(report))};
    }
    if (report.message[0] == '\0') {
        return {Verdict::fail, "refused with INVALID_PROBLEM but without a message naming the problem"};
    }
    return {Verdict::pass, fmt::format("refused: INVALID_PROBLEM, \"{}\"", report.message)};
}

const std::string* Expectations::reason(const std::string& name) const {
    auto it = reasons.find(name);
    return it == reasons.end() ? nullptr : &it->second;
}

Expectations read_expectations(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) throw Error(fmt::format("{}: cannot open the expectation file", file.string()));
    Expectations e;
    e.file = file.string();
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        std::istringstream words(line.substr(first));
        std::string name;
        words >> name;
        std::string reason;
        std::getline(words, reason);
        const auto start = reason.find_first_not_of(" \t");
        reason = start == std::string::npos ? std::string() : reason.substr(start);
        while (!reason.empty() && (reason.back() == '\r' || reason.back() == ' ')) reason.pop_back();
        if (reason.empty()) {
            throw Error(fmt::format("{}:{}: '{}' has no reason: write why the solver fails this case", e.file, number,
                                    name));
        }
        if (!e.reasons.emplace(name, reason).second) {
            throw Error(fmt::format("{}:{}: '{}' is listed twice", e.file, number, name));
        }
    }
    return e;
}

}  // namespace pivot::conformance

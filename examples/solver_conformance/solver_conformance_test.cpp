// A solver author's conformance test: the kit's cases (sdk/conformance in
// Pivot's sources; installed as pivot::solver_conformance) against the
// solver plugin named on the command line, and beside them a case of the
// author's own, written with the kit's problem generators, its session and
// its verdicts. Usage:
//   solver_conformance_test --plugin my_solver.so --solver my.solver [--expect my_solver.expect]
//                           [--tolerance T] [--gtest_filter=...]
#include <gtest/gtest.h>

#include <pivot/conformance/judge.hpp>
#include <pivot/conformance/kit.hpp>
#include <pivot/conformance/problems.hpp>

namespace {

namespace kit = pivot::conformance;

// The author's case: a larger contact island than the kit's (60 contacts
// with friction, 4 ball joints), as the author's simulator makes them. The
// verdict is the kit's: solved to the --tolerance by the kit's own residual,
// and never a false claim of convergence.
TEST(AuthorCases, sixty_contacts_with_joints) {
    const kit::Session* session = kit::current_session();
    ASSERT_NE(session, nullptr) << "no solver under test";
    kit::ContactScene scene;
    scene.contacts = 60;
    scene.ball_joints = 4;
    scene.seed = 60;
    const pivot::sdk::LcpData problem = kit::random_contact_problem(scene);
    if (const std::string why = session->incompatibility(problem); !why.empty()) GTEST_SKIP() << why;
    const pivot::sdk::LcpData given = session->as_given(problem);
    const kit::Attempt attempt = session->solve(session->instance(given), given);
    const kit::Outcome outcome =
        kit::judge_solvable(attempt, session->tolerance(given), session->claim_limit(given));
    EXPECT_EQ(outcome.verdict, kit::Verdict::pass) << outcome.detail;
}

}  // namespace

// The kit's main: parses the kit's options, registers its cases beside the
// ones above, and runs them all.
int main(int argc, char** argv) { return kit::run_main(argc, argv); }

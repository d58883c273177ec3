// build() and project() are on the per-step path and must not allocate
// (plugin.h, "THE PER-STEP PATH"). The test executable replaces the global
// operator new with a counting one; the plugins, loaded into this process,
// resolve operator new to it as well. The host's checked call allocates only
// when a check fails, so any count during a successful call is the plugin's.
// (All unaligned forms are replaced, so that new and delete always pair, also
// under AddressSanitizer.)
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "friction_test_support.hpp"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size > 0 ? size : 1)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size > 0 ? size : 1);
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
// Every (unaligned) form pairs with malloc/free, also under sanitizers.
// GCC 12 at -O2 with the sanitizers inlines the replaced operator new into
// callers and then warns that free() releases "new" memory, which is exactly
// the pairing chosen here (a false positive of -Wmismatched-new-delete).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace pivot::friction_test {
namespace {

// The counter sees the plugin's own allocations: create() allocates the
// instance with new (std::nothrow), which goes through operator new.
TEST(FrictionAllocation, CounterSeesThePluginsAllocations) {
    const PluginRecord& p = registry().require(PIVOT_KIND_FRICTION, "pivot.friction.box");
    const double params[2] = {0.5, 1e-4};
    void* instance = nullptr;
    const long before = g_allocations.load();
    ASSERT_EQ(p.friction.instance.create(nullptr, params, 2, &instance), PIVOT_OK);
    EXPECT_GT(g_allocations.load(), before);
    p.friction.instance.destroy(instance);
}

TEST(FrictionAllocation, BuildAndProjectDoNotAllocate) {
    const char* ids[] = {"pivot.friction.frictionless", "pivot.friction.box",       "pivot.friction.cone",
                         "pivot.friction.regularized",  "pivot.friction.compliant", "pivot.friction.circular"};
    std::vector<pivot_contact_point> contacts;
    for (int i = 0; i < 8; ++i) {
        pivot_contact_point c = plane_contact({0.1 * i, -0.05 * i, -0.3}, 0.2 * i, 1e-4 * i);
        c.previous_impulses[0] = 0.01 * i;
        contacts.push_back(c);
    }
    const uint32_t count = static_cast<uint32_t>(contacts.size());
    const pivot_step_info step = step_info(1e-3);
    for (const char* id : ids) {
        const Model model(id);
        const uint32_t m = model.max_rows();
        std::vector<pivot_row> rows(count * (m > 0 ? m : 1));
        std::vector<double> dirs(rows.size() * kWidth), coupling(count * (m > 0 ? m * m : 1)), impulses(count * 6),
            state(count * (model.state_size() > 0 ? model.state_size() : 1), 0.0);
        std::vector<uint32_t> row_counts(count);
        std::vector<pivot_contact_block> blocks(count);
        std::vector<double> z(count * 3, 0.5);
        const long before = g_allocations.load();
        const CallResult r = checked_friction_build(
            model.instance(), contacts.data(), nullptr, count, step,
            unguarded(model.state_size() > 0 ? state.data() : nullptr), unguarded(rows.data()), unguarded(dirs.data()),
            unguarded(coupling.data()), unguarded(impulses.data()), unguarded(row_counts.data()));
        const long after_build = g_allocations.load();
        ASSERT_TRUE(r.ok()) << r.message;
        EXPECT_EQ(after_build, before) << id << ": build allocated";
        if (model.plugin().friction.project != nullptr) {
            for (uint32_t c = 0; c < count; ++c) blocks[c] = pivot_contact_block{c, 3 * c, row_counts[c], 0};
            EXPECT_EQ(model.plugin().friction.project(model.instance().handle(), contacts.data(), blocks.data(), count,
                                                      z.data()),
                      PIVOT_OK);
            EXPECT_EQ(g_allocations.load(), after_build) << id << ": project allocated";
        }
    }
}

}  // namespace
}  // namespace pivot::friction_test

// The solver chains of a world: the world's own, the direct, Newton and
// large-island chains the engine gives islands to (assemble_islands.cpp), their
// clones for the worker threads, and naming another solver between steps.
#include "world/world.hpp"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/worker_pool.hpp"
#include "step/step_scratch.hpp"

namespace pivot {

void World::make_island_chains() {
    // Large islands, and the contact islands the Newton solver fails on:
    // velocity PGS with the island's sweeps as its work budget, no
    // fallback behind it (an exact solver on thousands of rows takes
    // seconds); it stops early at a residual the chain accepts.
    // Velocity PGS also takes the islands whose matrix would exceed
    // max_assembled_values, whatever the solver (assemble_islands.cpp).
    std::vector<SolverChoice> sweeps;
    if (registry_->find("pivot.solver.velocity_pgs") != nullptr) {
        const nlohmann::json options = {{"max_iterations", std::max<uint32_t>(model_.settings.large_island_sweeps, 1)},
                                        {"tolerance", 0.5 * model_.settings.solver_acceptance}};
        sweeps.push_back({"pivot.solver.velocity_pgs", options});
    }
    // Without a plugin (a registry that did not load it) the world's solver takes those islands.
    const auto make = [&](const char* id, bool& enabled,
                          const std::vector<SolverChoice>* behind) -> std::unique_ptr<LcpSolverChain> {
        if (!enabled || registry_->find(id) == nullptr) {
            enabled = false;
            return nullptr;
        }
        std::vector<SolverChoice> world_chain{model_.settings.solver};
        world_chain.insert(world_chain.end(), model_.settings.fallback.begin(), model_.settings.fallback.end());
        return std::make_unique<LcpSolverChain>(*registry_, SolverChoice{id, nlohmann::json::object()},
                                                behind != nullptr ? *behind : world_chain,
                                                model_.settings.solver_acceptance);
    };
    direct_ = make("pivot.solver.direct", model_.settings.direct_islands, nullptr);
    // Behind Newton: the bounded sweeps when there are any, not the world's
    // Dantzig and 10 000-sweep PGS, which take seconds on the 3-D piles
    // where Newton's pivoting stalls (a 300-sphere pile: docs/solvers.md).
    const bool sweeps_behind_newton = !sweeps.empty() && model_.settings.large_island_rows > 0;
    newton_ = make("pivot.solver.newton", model_.settings.newton_islands, sweeps_behind_newton ? &sweeps : nullptr);
    large_.reset();
    if (!sweeps.empty()) {
        large_ = std::make_unique<LcpSolverChain>(*registry_, sweeps.front(), std::vector<SolverChoice>{},
                                                  model_.settings.solver_acceptance);
    }
    worker_chains_.clear();  // cloned again from these at the next step
    worker_chain_owner_.clear();
}

void World::prepare_workers() {
    // The pool starts after a step with islands to share, or with contacts
    // enough for the contact stage to share (two chunks of its work).
    if (!scratch_ || (scratch_->island_count < 2 && scratch_->contact_points.size() < 512)) return;
    const uint32_t threads = WorkerPool::threads_for(model_.settings.threads);
    if (threads < 2) return;
    if (!pool_) pool_ = std::make_unique<WorkerPool>(threads);
    if (!worker_chains_.empty()) return;
    // Per thread beyond the calling one, clones of the four chains.
    for (uint32_t w = 1; w < pool_->size(); ++w) {
        IslandChains chains;
        const auto own = [&](const std::unique_ptr<LcpSolverChain>& chain) -> LcpSolverChain* {
            if (!chain) return nullptr;
            worker_chain_owner_.push_back(chain->clone());
            return worker_chain_owner_.back().get();
        };
        chains.chain = own(solver_);
        chains.direct = own(direct_);
        chains.newton = own(newton_);
        chains.large = own(large_);
        worker_chains_.push_back(chains);
    }
}

void World::set_solver(const SolverChoice& solver) {
    for (const MaterialDescription& m : model_.materials) {
        const PluginRecord& model = registry_->require(PIVOT_KIND_FRICTION, m.friction_model);
        if (std::string why = nonsymmetric_pairing(model, solver.id); !why.empty()) {
            throw Error(fmt::format("solver: material '{}' uses {}", m.name, why));
        }
    }
    for (const MaterialPairDescription& o : model_.material_pair_overrides) {
        if (!o.friction_model) continue;
        const PluginRecord& model = registry_->require(PIVOT_KIND_FRICTION, *o.friction_model);
        if (std::string why = nonsymmetric_pairing(model, solver.id); !why.empty()) {
            throw Error(fmt::format("solver: material pair ('{}', '{}') uses {}", o.materials[0], o.materials[1], why));
        }
    }
    solver_->set_primary(solver);
    model_.settings.solver = solver;
    model_.settings.direct_islands = false;  // the chosen solver takes every island
    model_.settings.newton_islands = false;
    model_.settings.large_island_rows = 0;
    make_island_chains();
}

const std::string* World::named_solver() const {
    const WorldSettings& s = model_.settings;
    if (s.direct_islands || s.newton_islands || s.large_island_rows != 0) return nullptr;
    return &solver_->primary_id();
}

void World::set_fallback(const std::vector<SolverChoice>& fallback) {
    solver_->set_fallbacks(fallback);
    model_.settings.fallback = fallback;
    make_island_chains();
}

}  // namespace pivot

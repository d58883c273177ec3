// Mass blocks (WorldModel::blocks): how a row's Jacobian on an element
// becomes its response Mbar^-1 J^T over the element's block, and solves with
// a block's factored matrix: dense Cholesky for a rigid body, the chain's
// sparse factor for a cable (element_dynamics.cpp factors both).
#include <algorithm>

#include "step/dense_cholesky.hpp"
#include "step/step_stages.hpp"

namespace pivot {

void solve_mass_block(const WorldModel& model, const StepScratch& s, uint32_t block, double* x, uint32_t first) {
    const MassBlock& b = model.blocks[block];
    if (b.chain) {
        s.chains[s.block_chain[block]]->solve(x, first);
    } else {
        cholesky_solve(s.mass.data() + s.mass_offset[b.first_element], b.nv, x);
    }
}

void add_row_block(const WorldModel& model, StepScratch& s, ProblemRow& row, uint32_t element, uint32_t offset,
                   bool solve) {
    const uint32_t block = model.element_block[element];
    const uint32_t nv = model.blocks[block].nv;
    const uint32_t first = model.element_block_offset[element];
    const uint32_t count = model.element_nv[element];
    const auto response = static_cast<uint32_t>(s.response.size());
    s.response.resize(response + nv, 0.0);
    row.blocks[row.block_count++] = RowBlock{block, offset, first, count, response};
    if (solve) compute_row_response(model, s, row.blocks[row.block_count - 1]);
}

void compute_row_response(const WorldModel& model, StepScratch& s, const RowBlock& block) {
    double* w = s.response.data() + block.response;
    std::fill(w, w + model.blocks[block.block].nv, 0.0);
    std::copy_n(s.jacobian.data() + block.offset, block.count, w + block.first);
    solve_mass_block(model, s, block.block, w, block.first);
}

void solve_row_responses(const WorldModel& model, StepScratch& s, uint32_t first_row, uint32_t end_row) {
    for (uint32_t r = first_row; r < end_row; ++r) {
        const ProblemRow& row = s.rows[r];
        for (uint32_t b = 0; b < row.block_count; ++b) compute_row_response(model, s, row.blocks[b]);
    }
}

}  // namespace pivot

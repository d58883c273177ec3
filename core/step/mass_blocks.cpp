// Mass blocks (WorldModel::blocks): how a row's Jacobian on an element
// becomes its response Mbar^-1 J^T over the element's block, and solves with
// a block's factored matrix: dense Cholesky for a rigid body, the chain's
// sparse factor for a cable (element_dynamics.cpp factors both).
#include <algorithm>

#include "common/worker_pool.hpp"
#include "step/dense_cholesky.hpp"
#include "step/step_stages.hpp"

namespace pivot {

void solve_mass_block(const WorldModel& model, const StepScratch& s, uint32_t block, double* x, uint32_t first) {
    const MassBlock& b = model.blocks[block];
    if (b.chain) {
        s.chains[s.block_chain[block]]->solve(x, first);
    } else if (b.nv <= kMaxInverseNv) {
        inverse_multiply_block(s.mass_inverse.data() + s.mass_offset[b.first_element], b.nv, x, first, b.nv);
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

namespace {

// The row block's Jacobian, zero-padded over its mass block, into its
// response slot (what the solve with the block's factor turns into Mbar^-1 J^T).
double* load_row_jacobian(const WorldModel& model, StepScratch& s, const RowBlock& block) {
    double* w = s.response.data() + block.response;
    std::fill(w, w + model.blocks[block.block].nv, 0.0);
    std::copy_n(s.jacobian.data() + block.offset, block.count, w + block.first);
    return w;
}

}  // namespace

void compute_row_response(const WorldModel& model, StepScratch& s, const RowBlock& block) {
    solve_mass_block(model, s, block.block, load_row_jacobian(model, s, block), block.first);
}

namespace {

// Whether two rows act on the same mass blocks in the same order (the rows
// of one joint do).
bool same_blocks(const ProblemRow& a, const ProblemRow& b) {
    if (a.block_count != b.block_count) return false;
    for (uint32_t k = 0; k < a.block_count; ++k) {
        if (a.blocks[k].block != b.blocks[k].block) return false;
    }
    return true;
}

}  // namespace

void solve_row_responses(const WorldModel& model, StepScratch& s, uint32_t first_row, uint32_t end_row,
                         WorkerPool* pool) {
    // Runs of rows on the same blocks (at most kRun): their responses
    // through each large dense block's factor together (cholesky_solve_many).
    // The runs are found first, then solved (on the pool when given: each
    // run writes its own rows' responses; cables' chain blocks only on the
    // calling thread, their factorization's solve being one thread's).
    constexpr uint32_t kRun = 8;
    s.response_runs.clear();
    bool chain = false;
    for (uint32_t r = first_row; r < end_row;) {
        uint32_t end = r + 1;
        while (end < end_row && end - r < kRun && same_blocks(s.rows[r], s.rows[end])) ++end;
        s.response_runs.push_back(r);
        for (uint32_t b = 0; b < s.rows[r].block_count; ++b) chain = chain || model.blocks[s.rows[r].blocks[b].block].chain;
        r = end;
    }
    s.response_runs.push_back(end_row);
    const auto runs = static_cast<uint32_t>(s.response_runs.size() - 1);
    WorkerPool::for_chunks(chain ? nullptr : pool, runs, 512, [&](uint32_t, uint32_t begin, uint32_t end) {
        for (uint32_t run = begin; run < end; ++run) {
            const uint32_t r = s.response_runs[run], last = s.response_runs[run + 1];
            for (uint32_t b = 0; b < s.rows[r].block_count; ++b) {
                const MassBlock& block = model.blocks[s.rows[r].blocks[b].block];
                if (block.chain || block.nv <= kMaxInverseNv) {
                    // A chain's factor, or a small block's kept inverse (solve_mass_block), row by row.
                    for (uint32_t k = r; k < last; ++k) compute_row_response(model, s, s.rows[k].blocks[b]);
                    continue;
                }
                double* columns[kRun];
                for (uint32_t k = r; k < last; ++k) columns[k - r] = load_row_jacobian(model, s, s.rows[k].blocks[b]);
                cholesky_solve_many(s.mass.data() + s.mass_offset[block.first_element], block.nv, columns, last - r);
            }
        }
    });
}

}  // namespace pivot

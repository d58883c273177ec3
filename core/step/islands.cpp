// Stage islands: mass blocks (a rigid body, a whole cable) coupled by a
// row are solved together; an island is a connected component of the graph
// whose nodes are the moving blocks and whose edges are the rows (the world
// and fixed bodies do not connect anything). Independent islands give independent, smaller problems.
// Deterministic: islands are numbered by their first row.
#include <numeric>

#include "step/step_stages.hpp"

namespace pivot {

namespace {

uint32_t find_root(std::vector<uint32_t>& parent, uint32_t e) {
    while (parent[e] != e) {
        parent[e] = parent[parent[e]];  // path halving
        e = parent[e];
    }
    return e;
}

}  // namespace

void find_islands(const WorldModel& model, StepScratch& s) {
    const auto blocks = static_cast<uint32_t>(model.blocks.size());
    std::iota(s.island_parent.begin(), s.island_parent.end(), 0u);
    for (const ProblemRow& row : s.rows) {
        for (uint32_t k = 1; k < row.block_count; ++k) {  // a rope's row joins up to kMaxRowBlocks
            const uint32_t a = find_root(s.island_parent, row.blocks[0].block);
            const uint32_t b = find_root(s.island_parent, row.blocks[k].block);
            if (a != b) s.island_parent[std::max(a, b)] = std::min(a, b);
        }
    }
    constexpr uint32_t kNone = UINT32_MAX;
    std::fill(s.island_of_root.begin(), s.island_of_root.end(), kNone);
    s.island_count = 0;
    for (ProblemRow& row : s.rows) {
        const uint32_t root =
            find_root(s.island_parent, row.block_count > 0 ? row.blocks[0].block : row.anchor_block);
        if (s.island_of_root[root] == kNone) s.island_of_root[root] = s.island_count++;
        row.island = s.island_of_root[root];
    }
    // Rows grouped by island (counting sort keeps the row order inside each).
    s.island_row_start.assign(s.island_count + 1, 0);
    for (const ProblemRow& row : s.rows) ++s.island_row_start[row.island + 1];
    for (uint32_t i = 0; i < s.island_count; ++i) s.island_row_start[i + 1] += s.island_row_start[i];
    s.island_rows.resize(s.rows.size());
    {
        // island_of_root is free again (every row knows its island): it
        // serves as the fill cursor, so no allocation is needed.
        std::vector<uint32_t>& cursor = s.island_of_root;
        for (uint32_t i = 0; i < s.island_count; ++i) cursor[i] = s.island_row_start[i];
        for (uint32_t r = 0; r < s.rows.size(); ++r) {
            ProblemRow& row = s.rows[r];
            row.index_in_island = cursor[row.island] - s.island_row_start[row.island];
            s.island_rows[cursor[row.island]++] = r;
        }
    }
    // Rows touching each block (for assembling J Mbar^-1 J^T).
    std::fill(s.block_row_start.begin(), s.block_row_start.end(), 0u);
    for (const ProblemRow& row : s.rows) {
        for (uint32_t b = 0; b < row.block_count; ++b) ++s.block_row_start[row.blocks[b].block + 1];
    }
    for (uint32_t b = 0; b < blocks; ++b) s.block_row_start[b + 1] += s.block_row_start[b];
    s.block_rows.resize(s.block_row_start[blocks]);
    std::vector<uint32_t>& cursor = s.island_parent;  // free again: islands are assigned
    for (uint32_t b = 0; b < blocks; ++b) cursor[b] = s.block_row_start[b];
    for (uint32_t r = 0; r < s.rows.size(); ++r) {
        const ProblemRow& row = s.rows[r];
        for (uint32_t b = 0; b < row.block_count; ++b) s.block_rows[cursor[row.blocks[b].block]++] = r;
    }
}

}  // namespace pivot

#pragma once
// Fill-reducing elimination order of a symmetric sparsity pattern, for the
// sparse factorization of the direct solver and the subspace minimization of PGS (sparse_ldu.hpp).
//
// Minimum degree on the quotient graph (George & Liu 1989, "The evolution of
// the minimum degree ordering algorithm", SIAM Review 31(1)): an
// eliminated node becomes an "element" whose variable list stands for the
// clique its elimination creates, so the graph never needs more storage than
// the input pattern. Degrees are the approximate external degrees of Amestoy,
// Davis & Duff 1996 ("An approximate minimum degree ordering algorithm",
// SIAM J. Matrix Anal. Appl. 17(4)), with element absorption and
// aggressive absorption; no supervariables, no dense-row detection (the
// patterns here have a few hundred to a few thousand nodes of moderate degree).
//
// All storage is sized by reserve(); order() never allocates.
#include <cstdint>
#include <vector>

namespace pivot::sparse {

class MinimumDegreeOrdering {
public:
    // Sizes the workspace for patterns of up to `nodes` nodes and `entries`
    // off-diagonal entries (both triangles counted). May allocate.
    void reserve(int32_t nodes, int64_t entries);

    // pattern: the neighbours of node j are rows[start[j] .. start[j+1]),
    // symmetric (i in j's list iff j in i's), no diagonal, no duplicates.
    // Writes order[k] = the node eliminated k-th. Returns false (order
    // unusable) only when the workspace is smaller than reserve(nodes,
    // start[nodes]) would have made it.
    bool order(int32_t nodes, const int32_t* start, const int32_t* rows, int32_t* order);

private:
    enum State : int8_t { kVariable = 0, kElement = 1, kAbsorbed = 2 };

    void bucket_insert(int32_t node, int32_t degree);
    void bucket_remove(int32_t node);
    // Moves the live lists to the front of lists_ (in place, in memory order).
    void compact(int32_t nodes);

    std::vector<int32_t> lists_;        // every node's list; variables: elements first, then variables
    int64_t tail_ = 0;                  // first unused position of lists_
    std::vector<int64_t> list_start_;   // where node j's list begins in lists_
    std::vector<int32_t> list_length_;  // its length
    std::vector<int32_t> element_count_;  // variables: how many of its list's entries are elements
    std::vector<int32_t> element_size_;   // elements: number of variables in the element
    std::vector<int8_t> state_;
    std::vector<int32_t> degree_;       // approximate external degree of a variable
    std::vector<int32_t> bucket_head_;  // degree -> first variable of that degree, -1 if none
    std::vector<int32_t> bucket_next_;
    std::vector<int32_t> bucket_prev_;
    std::vector<int32_t> member_stamp_;   // == stamp: the variable is in the pivot's new element
    std::vector<int32_t> element_stamp_;  // == stamp: element_outside_ is valid for this pivot
    std::vector<int32_t> element_outside_;  // |L_e \ L_p| for elements next to the new element p
};

}  // namespace pivot::sparse

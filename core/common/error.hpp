#pragma once
// The exception type of the engine's C++ core. Its message is written for
// the person who has to act on it: it names the file, object and field.
#include <stdexcept>
#include <string>

namespace pivot {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message);
};

// A plugin declared a step's outputs unusable for this step only
// (PIVOT_DISCARD): the step changed nothing and may be retried with a
// smaller timestep (World::step does, core/step/discarded_step.cpp).
class StepDiscarded : public Error {
public:
    using Error::Error;
};

}  // namespace pivot

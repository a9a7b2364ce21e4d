#pragma once
// One visitor from several lambdas, for std::visit over the server's result variants.

namespace server {

/// `std::visit(Overloaded{[](const A&) {...}, [](const B&) {...}}, v)`: each lambda handles one
/// alternative.
template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace server

// The one translation unit that compiles Asio's and Beast's own (non-template) code.
//
// Every target that includes Asio or Beast links the `asio_beast` library built from this file,
// which makes them compile with BOOST_ASIO_SEPARATE_COMPILATION and
// BOOST_BEAST_SEPARATE_COMPILATION: their headers then declare the reactor, scheduler, socket
// operations, error categories and Beast's non-template helpers instead of defining them inline,
// so each of the server's and the tests' sources stops generating and optimising its own copy
// (a fifth of a server source's compile; docs/benchmarks.md, "Build and CI time").
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>

#pragma once
// nlohmann/json for this project: every source includes this header, never
// <nlohmann/json.hpp> itself, and every target that does links the `basic_json` library
// (CMakeLists.txt).
//
// Why: the members of nlohmann::json (basic_json<>) are defined in its class, and each source
// that used them compiled its own copy of each, which the linker then threw away but one: in a
// server_core unity batch of the sanitizer build, some 1,700 such functions. The declaration
// below says that basic_json.cpp instantiates them once; a source calls that copy (an
// optimizing build still inlines what it chooses to), and compiles about a tenth faster
// (docs/benchmarks.md, "Build and CI time"). Member templates (get<T>, value, the iterators,
// the parser and serializer) are instantiated where they are used, as before.

#include <nlohmann/json.hpp>

extern template class nlohmann::basic_json<>;

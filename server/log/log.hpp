#pragma once
// The server's one way to include spdlog: every source that logs includes this header, never
// <spdlog/spdlog.h> itself.
//
// Why: fmt 9 (Debian's libfmt9, which spdlog formats with) defines its formatting engine,
// detail::vformat_to<char> and everything it calls (integer and float writers, Dragonbox,
// padding), as templates in <fmt/format.h>, and every source that logs instantiated all of it
// again: about 800 KB of code in one unity batch of server_core. libfmt.so already holds that
// instantiation (format.cc instantiates it explicitly), but fmt 9's headers do not say so; fmt 10
// does, with the declaration below. With it, a source calls the library's copy, and a server
// batch compiles about a quarter faster (docs/benchmarks.md, "Build and CI time").

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#if FMT_VERSION < 100000 && !defined(FMT_HEADER_ONLY)
FMT_BEGIN_NAMESPACE
namespace detail {
extern template FMT_API void vformat_to<char>(
    buffer<char>&, basic_string_view<char>,
    basic_format_args<FMT_BUFFER_CONTEXT(type_identity_t<char>)>, locale_ref);
}  // namespace detail
FMT_END_NAMESPACE
#endif

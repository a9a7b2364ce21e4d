// The RFC 6902 diff of two views, in one pass.
//
// nlohmann::json::diff compares the two subtrees for equality at every level it descends
// (operator== walks the whole subtree), so a view is walked once per level of its depth, and
// each level's operations are copied up into its parent's array. Here each node is visited once
// and operations go straight into the one result.
//
// The operations are nlohmann's, with one exception: an array most of whose common elements
// differ (the legal steps after a step: moves become builds) is replaced whole, in one
// operation, rather than element by element and field by field: a smaller patch, cheaper to
// make and to apply. tests/protocol/json_diff_test.cpp checks both on random documents.
// Test-only: the server writes its patches from typed views (Game::write_patch) and never
// diffs trees.

#include <algorithm>
#include <string>

#include "tests/support/protocol_oracles/oracles.hpp"

namespace protocol {
namespace {

using json = nlohmann::json;

/// A key as a JSON Pointer reference token: "~" is "~0" and "/" is "~1" (RFC 6901).
std::string escaped(const std::string& key) {
    if (key.find_first_of("~/") == std::string::npos) return key;
    std::string out;
    out.reserve(key.size() + 2);
    for (const char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

void diff_into(const json& from, const json& to, std::string& path, json& ops) {
    // Numbers of different kinds (1 and 1u) are equal when their values are, as in nlohmann.
    if (from.is_number() && to.is_number()) {
        if (from != to) ops.push_back({{"op", "replace"}, {"path", path}, {"value", to}});
        return;
    }
    if (from.type() != to.type()) {
        ops.push_back({{"op", "replace"}, {"path", path}, {"value", to}});
        return;
    }
    const std::size_t base = path.size();
    switch (from.type()) {
        case json::value_t::array: {
            const std::size_t common = std::min(from.size(), to.size());
            std::size_t differing = 0;
            for (std::size_t k = 0; k < common; ++k) differing += from[k] != to[k];
            if (2 * differing > common) {
                ops.push_back({{"op", "replace"}, {"path", path}, {"value", to}});
                return;
            }
            std::size_t i = 0;
            for (; i < from.size() && i < to.size(); ++i) {
                path += '/';
                path += std::to_string(i);
                diff_into(from[i], to[i], path, ops);
                path.resize(base);
            }
            // Surplus elements are removed from the last one down, so indices stay valid.
            for (std::size_t k = from.size(); k > i; --k)
                ops.push_back({{"op", "remove"}, {"path", path + '/' + std::to_string(k - 1)}});
            for (; i < to.size(); ++i)
                ops.push_back({{"op", "add"}, {"path", path + "/-"}, {"value", to[i]}});
            return;
        }
        case json::value_t::object: {
            for (auto it = from.cbegin(); it != from.cend(); ++it) {
                path += '/';
                path += escaped(it.key());
                if (const auto there = to.find(it.key()); there != to.end())
                    diff_into(it.value(), *there, path, ops);
                else
                    ops.push_back({{"op", "remove"}, {"path", path}});
                path.resize(base);
            }
            for (auto it = to.cbegin(); it != to.cend(); ++it)
                if (!from.contains(it.key()))
                    ops.push_back({{"op", "add"},
                                   {"path", path + '/' + escaped(it.key())},
                                   {"value", it.value()}});
            return;
        }
        default:
            if (from != to) ops.push_back({{"op", "replace"}, {"path", path}, {"value", to}});
            return;
    }
}

}  // namespace

json diff(const json& from, const json& to) {
    json ops = json::array();
    std::string path;
    diff_into(from, to, path, ops);
    return ops;
}

}  // namespace protocol

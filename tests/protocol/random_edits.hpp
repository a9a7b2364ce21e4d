#pragma once
// Random edits of a text, as a fuzzer makes them: the parser tests mutate real messages with
// these and check what the parsers make of the result.

#include <cstddef>
#include <random>
#include <string>
#include <string_view>

namespace protocol_test {

/// What edit_at_random may do.
struct RandomEdits {
    int max_edits = 4;        ///< 1 to this many edits
    std::size_t max_cut = 5;  ///< a cut takes 1 to this many bytes
    bool copy_runs = false;   ///< also: a run of 1 to 12 bytes of the text copied elsewhere
};

/// Edits `text` 1 to `edits.max_edits` times: a byte replaced by, or inserted from,
/// `alphabet`; bytes cut; a run copied (when asked); or the rest cut off.
inline void edit_at_random(std::string& text, std::mt19937& rng, std::string_view alphabet,
                           const RandomEdits& edits = {}) {
    auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    const int count = 1 + static_cast<int>(pick(static_cast<std::size_t>(edits.max_edits)));
    for (int e = 0; e < count && !text.empty(); ++e) {
        const std::size_t at = pick(text.size());
        const std::size_t kind = pick(edits.copy_runs ? 5 : 4);
        if (kind == 0) {
            text[at] = alphabet[pick(alphabet.size())];
        } else if (kind == 1) {
            text.insert(at, 1, alphabet[pick(alphabet.size())]);
        } else if (kind == 2) {
            text.erase(at, 1 + pick(edits.max_cut));
        } else if (kind == 3 && edits.copy_runs) {
            const std::size_t from = pick(text.size());
            text.insert(at, text.substr(from, 1 + pick(12)));
        } else {
            text.resize(at);
        }
    }
}

}  // namespace protocol_test

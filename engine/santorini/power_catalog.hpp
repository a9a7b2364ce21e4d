#pragma once
// The 55 god and hero powers as data: what the rulebook's card says about who may play them
// and with whom (from engine/santorini/data/powers.csv), plus the setup facts the engine needs.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace santorini {

/// A power, numbered as in the rulebook (1 = Apollo .. 55 = Theseus); None = no power.
enum class PowerId : std::uint8_t {
    None = 0,
    Apollo, Artemis, Athena, Atlas, Demeter, Hephaestus, Hermes, Minotaur, Pan, Prometheus,
    Aphrodite, Ares, Bia, Chaos, Charon, Chronus, Circe, Dionysus, Eros, Hera,
    Hestia, Hypnus, Limus, Medusa, Morpheus, Persephone, Poseidon, Selene, Triton, Zeus,
    Aeolus, Charybdis, Clio, EuropaTalus, Gaea, Graeae, Hades, Harpies, Hecate, Moerae,
    Nemesis, Siren, Tartarus, Terpsichore, Urania,
    Achilles, Adonis, Atalanta, Bellerophon, Heracles, Jason, Medea, Odysseus, Polyphemus, Theseus,
};
inline constexpr int power_count = 55;

/// The rulebook's three sets of cards.
enum class PowerCategory : std::uint8_t { Simple, Advanced, Hero };

/// When a power's owner places workers relative to the others (Bia, Tartarus: first; Hecate: last).
enum class PlacementOrder : std::uint8_t { Normal, First, Last };

/// A power's card facts.
struct PowerInfo {
    PowerId id;
    std::string_view name;       ///< as in the rulebook ("Europa & Talus")
    std::string_view key;        ///< one word for notation and protocol ("EuropaTalus")
    PowerCategory category;
    std::uint8_t player_counts;  ///< bit n set = playable with n players
    bool golden_fleece;          ///< may be the Golden Fleece power
    bool hidden;                 ///< owner holds information opponents may not see
    bool luck;                   ///< draws from a shuffled deck (Chaos)
    std::uint8_t workers;        ///< workers placed during setup (Graeae, Moerae: 3)
    std::uint8_t reserve;        ///< workers kept on the card until the power places them (Gaea 2, Jason 1)
    PlacementOrder placement;
    std::uint8_t implemented;    ///< 1 once the engine plays it; the draft offers nothing else
};

/// Facts about one power; `id` must not be None.
const PowerInfo& power_info(PowerId id);
/// All 55 powers in rulebook order.
std::span<const PowerInfo> all_powers();
/// Looks a power up by key or rulebook name, case-insensitively; nullopt if unknown.
std::optional<PowerId> find_power(std::string_view name_or_key);
/// True if the rulebook bans `a` against `b` (symmetric).
bool banned_pair(PowerId a, PowerId b);
/// True if `id` may be played in a game of `players` players.
bool allowed_with_players(PowerId id, int players);

}  // namespace santorini

#include "engine/santorini/power_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace santorini {
namespace {

constexpr std::uint8_t p2 = 1 << 2, p3 = 1 << 3, p4 = 1 << 4;
constexpr std::uint8_t p234 = p2 | p3 | p4;
using C = PowerCategory;
using O = PlacementOrder;

// Columns: id, name, key, category, players, golden fleece, hidden, luck, workers, reserve
// workers, placement, implemented. Transcribed from data/powers.csv; tests check it against that file.
constexpr std::array<PowerInfo, power_count> catalog{{
    {PowerId::Apollo, "Apollo", "Apollo", C::Simple, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Artemis, "Artemis", "Artemis", C::Simple, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Athena, "Athena", "Athena", C::Simple, p234, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Atlas, "Atlas", "Atlas", C::Simple, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Demeter, "Demeter", "Demeter", C::Simple, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Hephaestus, "Hephaestus", "Hephaestus", C::Simple, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Hermes, "Hermes", "Hermes", C::Simple, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Minotaur, "Minotaur", "Minotaur", C::Simple, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Pan, "Pan", "Pan", C::Simple, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Prometheus, "Prometheus", "Prometheus", C::Simple, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Aphrodite, "Aphrodite", "Aphrodite", C::Advanced, p2 | p4, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Ares, "Ares", "Ares", C::Advanced, p234, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Bia, "Bia", "Bia", C::Advanced, p234, true, false, false, 2, 0, O::First, 1},
    {PowerId::Chaos, "Chaos", "Chaos", C::Advanced, p234, true, false, true, 2, 0, O::Normal, 1},
    {PowerId::Charon, "Charon", "Charon", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Chronus, "Chronus", "Chronus", C::Advanced, p2, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Circe, "Circe", "Circe", C::Advanced, p2, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Dionysus, "Dionysus", "Dionysus", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Eros, "Eros", "Eros", C::Advanced, p234, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Hera, "Hera", "Hera", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Hestia, "Hestia", "Hestia", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Hypnus, "Hypnus", "Hypnus", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Limus, "Limus", "Limus", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Medusa, "Medusa", "Medusa", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Morpheus, "Morpheus", "Morpheus", C::Advanced, p234, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Persephone, "Persephone", "Persephone", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Poseidon, "Poseidon", "Poseidon", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Selene, "Selene", "Selene", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Triton, "Triton", "Triton", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Zeus, "Zeus", "Zeus", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Aeolus, "Aeolus", "Aeolus", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Charybdis, "Charybdis", "Charybdis", C::Advanced, p234, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Clio, "Clio", "Clio", C::Advanced, p2 | p3, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::EuropaTalus, "Europa & Talus", "EuropaTalus", C::Advanced, p234, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Gaea, "Gaea", "Gaea", C::Advanced, p2 | p3, false, false, false, 2, 2, O::Normal, 1},
    {PowerId::Graeae, "Graeae", "Graeae", C::Advanced, p2 | p3, false, false, false, 3, 0, O::Normal, 1},
    {PowerId::Hades, "Hades", "Hades", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Harpies, "Harpies", "Harpies", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Hecate, "Hecate", "Hecate", C::Advanced, p2 | p3, false, true, false, 2, 0, O::Last, 1},
    {PowerId::Moerae, "Moerae", "Moerae", C::Advanced, p2 | p3, false, true, false, 3, 0, O::Normal, 1},
    {PowerId::Nemesis, "Nemesis", "Nemesis", C::Advanced, p234, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Siren, "Siren", "Siren", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Tartarus, "Tartarus", "Tartarus", C::Advanced, p2, false, true, false, 2, 0, O::First, 1},
    {PowerId::Terpsichore, "Terpsichore", "Terpsichore", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Urania, "Urania", "Urania", C::Advanced, p234, true, false, false, 2, 0, O::Normal, 1},
    {PowerId::Achilles, "Achilles", "Achilles", C::Hero, p2, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Adonis, "Adonis", "Adonis", C::Hero, p2, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Atalanta, "Atalanta", "Atalanta", C::Hero, p2, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Bellerophon, "Bellerophon", "Bellerophon", C::Hero, p2, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Heracles, "Heracles", "Heracles", C::Hero, p2, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Jason, "Jason", "Jason", C::Hero, p2, false, false, false, 2, 1, O::Normal, 1},
    {PowerId::Medea, "Medea", "Medea", C::Hero, p2, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Odysseus, "Odysseus", "Odysseus", C::Hero, p2, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Polyphemus, "Polyphemus", "Polyphemus", C::Hero, p2, false, false, false, 2, 0, O::Normal, 1},
    {PowerId::Theseus, "Theseus", "Theseus", C::Hero, p2, false, false, false, 2, 0, O::Normal, 1},
}};

// The rulebook's banned matchups, each pair once (the card lists are symmetric).
constexpr std::pair<PowerId, PowerId> banned[] = {
    {PowerId::Atlas, PowerId::Gaea},          {PowerId::Hermes, PowerId::Harpies},
    {PowerId::Pan, PowerId::Hades},           {PowerId::Aphrodite, PowerId::Nemesis},
    {PowerId::Aphrodite, PowerId::Urania},    {PowerId::Bia, PowerId::Nemesis},
    {PowerId::Bia, PowerId::Tartarus},        {PowerId::Charon, PowerId::Hecate},
    {PowerId::Circe, PowerId::Clio},          {PowerId::Circe, PowerId::Hecate},
    {PowerId::Hypnus, PowerId::Terpsichore},  {PowerId::Limus, PowerId::Terpsichore},
    {PowerId::Medusa, PowerId::Nemesis},      {PowerId::Selene, PowerId::Gaea},
    {PowerId::Triton, PowerId::Harpies},      {PowerId::Clio, PowerId::Nemesis},
    {PowerId::Gaea, PowerId::Nemesis},        {PowerId::Graeae, PowerId::Nemesis},
    {PowerId::Hecate, PowerId::Moerae},       {PowerId::Hecate, PowerId::Tartarus},
    {PowerId::Moerae, PowerId::Nemesis},      {PowerId::Moerae, PowerId::Tartarus},
    {PowerId::Nemesis, PowerId::Terpsichore}, {PowerId::Nemesis, PowerId::Theseus},
    {PowerId::Tartarus, PowerId::Terpsichore},
};

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

}  // namespace

const PowerInfo& power_info(PowerId id) { return catalog[static_cast<std::size_t>(id) - 1]; }

std::span<const PowerInfo> all_powers() { return catalog; }

std::optional<PowerId> find_power(std::string_view name) {
    for (const auto& p : catalog)
        if (iequals(p.key, name) || iequals(p.name, name)) return p.id;
    return std::nullopt;
}

bool banned_pair(PowerId a, PowerId b) {
    for (auto [x, y] : banned)
        if ((x == a && y == b) || (x == b && y == a)) return true;
    return false;
}

bool allowed_with_players(PowerId id, int players) {
    return players >= 2 && players <= 4 && (power_info(id).player_counts & (1 << players)) != 0;
}

}  // namespace santorini

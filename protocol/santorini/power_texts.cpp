#include "protocol/santorini/power_texts.hpp"

#include <array>
#include <cstddef>
#include <utility>

namespace protocol {
namespace {

using santorini::PowerId;

// In rulebook order, one per power; each line names its power so that a text out of place
// fails to compile (the static_assert below).
constexpr std::array<std::pair<PowerId, std::string_view>, santorini::power_count> texts{{
    {PowerId::Apollo,
     "May move into an opponent's space; the opponent's worker goes to the space Apollo left."},
    {PowerId::Artemis,
     "May move one extra time, but not back to where the worker started."},
    {PowerId::Athena,
     "If one of her workers moved up this turn, opponents cannot move up on their next turn."},
    {PowerId::Atlas,
     "May build a dome on any level, not only on top of the third."},
    {PowerId::Demeter,
     "May build one extra time, but not on the same space."},
    {PowerId::Hephaestus,
     "May build one extra block (not a dome) on top of the first build."},
    {PowerId::Hermes,
     "If the workers stay on the same level, they may move any number of times; either worker builds afterwards."},
    {PowerId::Minotaur,
     "May move into an opponent's space if that worker can be pushed straight back one space."},
    {PowerId::Pan,
     "Also wins by moving down two or more levels."},
    {PowerId::Prometheus,
     "If this worker won't move up, it may build before moving as well as after."},
    {PowerId::Aphrodite,
     "Opponent workers starting next to hers must end their turn next to one of hers."},
    {PowerId::Ares,
     "At the end of the turn, the unmoved worker may remove an unoccupied block (not a dome) next to it."},
    {PowerId::Bia,
     "Place workers first. Moving next to an opponent's worker with the next space in line removes that worker."},
    {PowerId::Chaos,
     "Holds a deck of simple gods and plays the top one; a dome built in any turn makes him draw a new god."},
    {PowerId::Charon,
     "Before moving, may ferry an adjacent opponent's worker to the space directly opposite."},
    {PowerId::Chronus,
     "Also wins when five or more complete towers stand on the board."},
    {PowerId::Circe,
     "When an opponent's workers are not next to each other, Circe takes that opponent's power until her next turn."},
    {PowerId::Dionysus,
     "Each dome on a third level earns an extra turn moving an opponent's worker (nobody wins in it)."},
    {PowerId::Eros,
     "Place workers on opposite edges. Also wins when both workers end up next to each other on level 1 (level 2 with three players)."},
    {PowerId::Hera,
     "Opponents cannot win by moving onto a perimeter space."},
    {PowerId::Hestia,
     "May build one extra time, but not on a perimeter space."},
    {PowerId::Hypnus,
     "The opponent's highest worker (if only one is highest) may not move."},
    {PowerId::Limus,
     "Opponents may not build next to Limus' workers, except domes on third levels."},
    {PowerId::Medusa,
     "At the end of the turn, petrifies lower adjacent opponent workers: they leave and a block takes their place."},
    {PowerId::Morpheus,
     "Gains a build on his card every turn and may spend any number of stored builds at once."},
    {PowerId::Persephone,
     "If an opponent can move up, at least one of their workers must do so."},
    {PowerId::Poseidon,
     "If the unmoved worker stands on the ground, it may build up to three times."},
    {PowerId::Selene,
     "Has one female worker who may build a dome at any level, whichever worker moved."},
    {PowerId::Triton,
     "Each time a worker moves onto a perimeter space it may move again."},
    {PowerId::Zeus,
     "May build a block under its own worker (not on level 3 to win)."},
    {PowerId::Aeolus,
     "Once per game, sets a wind direction in which nobody may move until his next turn."},
    {PowerId::Charybdis,
     "Places whirlpools that link two spaces: moving onto one carries the worker to the other."},
    {PowerId::Clio,
     "Covers built blocks with coins; opponents treat coin spaces as unavailable."},
    {PowerId::EuropaTalus,
     "Places Talus, a token that blocks its space, and moves it next to her workers."},
    {PowerId::Gaea,
     "Has two extra workers who appear when she builds domes."},
    {PowerId::Graeae,
     "Has three workers and builds with one that did not move."},
    {PowerId::Hades,
     "Opponents cannot move down."},
    {PowerId::Harpies,
     "Opponent workers that move keep sliding one space in the same direction while they can stay level or go down."},
    {PowerId::Hecate,
     "Her workers are secret: their squares stay hidden from opponents."},
    {PowerId::Moerae,
     "Secretly chooses a region of the board: controlling it at the start of a turn wins."},
    {PowerId::Nemesis,
     "If none of her workers is next to an opponent's, she may swap places with opponent workers."},
    {PowerId::Siren,
     "Instead of moving, may pull opponent workers one space toward her."},
    {PowerId::Tartarus,
     "Secretly places an abyss: a worker stepping into it loses."},
    {PowerId::Terpsichore,
     "Must move both workers and build with both."},
    {PowerId::Urania,
     "The board wraps around: edges are next to the opposite edges."},
    {PowerId::Achilles,
     "Once per game, builds both before and after moving."},
    {PowerId::Adonis,
     "Once per game, forces an opponent's worker to end its turn next to his."},
    {PowerId::Atalanta,
     "Once per game, moves as many times as she likes."},
    {PowerId::Bellerophon,
     "Once per game, moves up two levels."},
    {PowerId::Heracles,
     "Once per game, builds domes anywhere instead of blocks."},
    {PowerId::Jason,
     "Once per game, places a third worker at the edge instead of moving."},
    {PowerId::Medea,
     "Once per game, removes a block from under an adjacent opponent's worker."},
    {PowerId::Odysseus,
     "Once per game, moves opponent workers from next to him to corners."},
    {PowerId::Polyphemus,
     "Once per game, builds up to two domes anywhere."},
    {PowerId::Theseus,
     "Once per game, removes an opponent worker on a higher level next to him."},
}};

constexpr bool in_rulebook_order() {
    for (std::size_t i = 0; i < texts.size(); ++i)
        if (static_cast<std::size_t>(texts[i].first) != i + 1 || texts[i].second.empty()) return false;
    return true;
}
static_assert(in_rulebook_order(), "one text per power, in PowerId order");

}  // namespace

std::string_view power_text(PowerId id) {
    const auto index = static_cast<std::size_t>(id);
    if (index == 0 || index > texts.size()) return {};
    return texts[index - 1].second;
}

}  // namespace protocol

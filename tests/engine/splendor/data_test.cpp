// The card and noble data compiled into the engine, checked row by row against the CSV files:
// the engine's copies (engine/splendor/data/) and, where the checkout has them next to the
// repository, the shared originals (../shared/splendor/).

#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/splendor/cards.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace data_test {

using namespace splendor;

namespace {

std::vector<std::vector<std::string>> read_csv(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    std::vector<std::vector<std::string>> rows;
    std::string text;
    while (std::getline(in, text)) {
        if (!text.empty() && text.back() == '\r') text.pop_back();
        if (text.empty()) continue;
        std::vector<std::string> cells;
        std::stringstream ss(text);
        std::string cell;
        while (std::getline(ss, cell, ',')) cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

void check_cards(const std::string& path) {
    INFO(path);
    auto rows = read_csv(path);
    REQUIRE(rows.size() == card_count + 1);
    CHECK(rows[0] == std::vector<std::string>{"level", "bonus", "points", "white", "blue", "green",
                                              "red", "black"});
    for (int id = 0; id < card_count; ++id) {
        const auto& r = rows[static_cast<std::size_t>(id) + 1];
        INFO("card #" << id);
        REQUIRE(r.size() == 8);
        const Card& c = card(id);
        CHECK(std::stoi(r[0]) == c.level);
        CHECK(r[1] == gem_name(c.bonus));
        CHECK(std::stoi(r[2]) == c.points);
        for (int k = 0; k < gem_colours; ++k)
            CHECK(std::stoi(r[static_cast<std::size_t>(3 + k)]) ==
                  c.cost[static_cast<std::size_t>(k)]);
    }
}

void check_nobles(const std::string& path) {
    INFO(path);
    auto rows = read_csv(path);
    REQUIRE(rows.size() == noble_count + 1);
    CHECK(rows[0] == std::vector<std::string>{"points", "white", "blue", "green", "red", "black"});
    for (int id = 0; id < noble_count; ++id) {
        const auto& r = rows[static_cast<std::size_t>(id) + 1];
        INFO("noble #" << id);
        REQUIRE(r.size() == 6);
        CHECK(std::stoi(r[0]) == noble(id).points);
        for (int k = 0; k < gem_colours; ++k)
            CHECK(std::stoi(r[static_cast<std::size_t>(1 + k)]) ==
                  noble(id).requirements[static_cast<std::size_t>(k)]);
    }
}

}  // namespace

TEST_CASE("every card and noble matches engine/splendor/data") {
    check_cards(std::string(SPLENDOR_DATA_DIR) + "/cards.csv");
    check_nobles(std::string(SPLENDOR_DATA_DIR) + "/nobles.csv");
}

TEST_CASE("every card and noble matches ../shared/splendor where the checkout has it") {
    const std::string dir = SPLENDOR_SHARED_DIR;
    if (!std::filesystem::exists(dir + "/cards.csv")) {
        WARN("no " << dir << ": only the engine's copies were checked");
        return;
    }
    check_cards(dir + "/cards.csv");
    check_nobles(dir + "/nobles.csv");
}

TEST_CASE("the decks hold 40, 30 and 20 cards, in id order by level") {
    int count[levels] = {};
    int last_level = 1;
    for (int id = 0; id < card_count; ++id) {
        CHECK(card(id).level >= last_level);
        last_level = card(id).level;
        ++count[card(id).level - 1];
    }
    CHECK(count[0] == 40);
    CHECK(count[1] == 30);
    CHECK(count[2] == 20);
}

}  // namespace data_test

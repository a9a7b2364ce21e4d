// Preferences in PostgreSQL (server/store/preference_store.hpp, migrations/0007_preferences.sql):
// none stored reads as nothing, a put inserts then replaces the whole row, the muted list keeps
// its order, and the table's own checks (a known player, at most 200 ids, a language's form)
// hold even against a caller that skipped its own.

#include "server/store/preference_store.hpp"

#include <catch2/catch_test_macros.hpp>
#include <string>
#include <vector>

#include "server/store/repository.hpp"
#include "test_database.hpp"

using store::PreferenceStore;
using store::StoredPreferences;
using store_test::TestSchema;

TEST_CASE("preference store: read, insert, replace; the table's checks", "[store][preferences]") {
    TestSchema schema;
    store::Repository repo(schema.url());
    REQUIRE(repo.create_guest({"p_ann", "Ann", "token-ann", 0}).ok());
    PreferenceStore prefs(schema.url());

    auto none = prefs.of_player("p_ann");
    REQUIRE(none.ok());
    CHECK_FALSE(none->has_value());

    REQUIRE(prefs.put("p_ann", StoredPreferences{"it", true, {"p_zed", "c_3", "p_bob"}}, 1000).ok());
    auto first = prefs.of_player("p_ann");
    REQUIRE(first.ok());
    REQUIRE(first->has_value());
    CHECK((*first)->language == std::optional<std::string>("it"));
    CHECK((*first)->chat_off);
    CHECK((*first)->muted == std::vector<std::string>{"p_zed", "c_3", "p_bob"});

    // A put replaces everything: the language back to the browser's, nobody muted.
    REQUIRE(prefs.put("p_ann", StoredPreferences{std::nullopt, false, {}}, 2000).ok());
    auto second = prefs.of_player("p_ann");
    REQUIRE(second.ok());
    REQUIRE(second->has_value());
    CHECK_FALSE((*second)->language.has_value());
    CHECK_FALSE((*second)->chat_off);
    CHECK((*second)->muted.empty());
    CHECK(schema.scalar("SELECT count(*) FROM preferences") == "1");

    // The table refuses what the server's checks would have: nothing changes.
    std::vector<std::string> too_many;
    for (int i = 0; i < 201; ++i) too_many.push_back("p_" + std::to_string(i));
    CHECK_FALSE(prefs.put("p_ann", StoredPreferences{std::nullopt, false, too_many}, 3000).ok());
    CHECK_FALSE(prefs.put("p_ann", StoredPreferences{"English", false, {}}, 3000).ok());
    CHECK_FALSE(prefs.put("p_ann", StoredPreferences{std::nullopt, false, {"p_a,p_b"}}, 3000).ok());
    CHECK_FALSE(prefs.put("p_nobody", StoredPreferences{std::nullopt, false, {}}, 3000).ok());
    CHECK(schema.scalar("SELECT cardinality(muted) || ' ' || (language IS NULL) FROM preferences") ==
          "0 true");
}

// The migration runner: applies once, reruns as a no-op, never twice under concurrency, refuses
// edited history.

#include "server/store/migrations.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "test_database.hpp"

using Catch::Matchers::ContainsSubstring;
using store::StoreError;
using store_test::TestSchema;

namespace {

// A directory of migration files, deleted at the end of the test.
struct MigrationDir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / store_test::unique_name("santorini-migrations-");
    MigrationDir() { std::filesystem::create_directories(path); }
    ~MigrationDir() { std::filesystem::remove_all(path); }
    void write(const std::string& name, const std::string& sql) const {
        std::ofstream(path / name, std::ios::binary | std::ios::trunc) << sql;
    }
};

bool table_exists(const TestSchema& s, const std::string& table) {
    return s.scalar("SELECT count(*) FROM information_schema.tables WHERE table_schema = '" +
                    s.name() + "' AND table_name = '" + table + "'") == "1";
}

}  // namespace

TEST_CASE("migrations apply once, and a rerun applies nothing", "[migrations]") {
    TestSchema s(false);
    auto first = store::migrate(s.url(), "migrations");
    REQUIRE(first.ok());
    // Every file of migrations/, in order (several branches add numbered files at once).
    std::vector<std::string> all;
    for (const auto& entry : std::filesystem::directory_iterator("migrations"))
        if (entry.path().extension() == ".sql") all.push_back(entry.path().filename().string());
    std::sort(all.begin(), all.end());
    REQUIRE(all.size() >= 2);
    CHECK(all[0] == "0001_initial.sql");
    CHECK(all[1] == "0002_fleet.sql");
    CHECK(std::find(all.begin(), all.end(), "0003_bots.sql") != all.end());
    CHECK(first->applied == all);
    CHECK(first->present.empty());
    for (auto table :
         {"players", "matches", "seats", "steps", "ratings", "rating_history", "nodes"})
        CHECK(table_exists(s, table));
    CHECK(s.scalar("SELECT count(*) FROM information_schema.columns WHERE table_schema = '" +
                   s.name() + "' AND table_name = 'matches' AND column_name = 'lease_until'") ==
          "1");
    // The computer players, one per level (0003_bots.sql).
    CHECK(s.scalar("SELECT count(*) FROM players WHERE id LIKE 'c\\_%'") == "15");
    CHECK(s.scalar("SELECT display_name FROM players WHERE id = 'c_3'") == "Computer (level 3)");
    CHECK(s.scalar("SELECT display_name FROM players WHERE id = 'c_3_2'") ==
          "Computer 2 (level 3)");

    auto second = store::migrate(s.url(), "migrations");
    REQUIRE(second.ok());
    CHECK(second->applied.empty());
    CHECK(second->present == all);
    CHECK(s.scalar("SELECT count(*) FROM schema_migrations") == std::to_string(all.size()));
}

TEST_CASE("migrations apply in numeric order, each recorded with its checksum", "[migrations]") {
    TestSchema s(false);
    MigrationDir dir;
    dir.write("10_third.sql", "ALTER TABLE a ADD COLUMN z int;");
    dir.write("2_second.sql", "ALTER TABLE a ADD COLUMN y int;");
    dir.write("1_first.sql", "CREATE TABLE a (x int);");
    dir.write("README", "not a migration");
    auto r = store::migrate(s.url(), dir.path);
    REQUIRE(r.ok());
    CHECK(r->applied == std::vector<std::string>{"1_first.sql", "2_second.sql", "10_third.sql"});
    CHECK(
        s.scalar("SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_migrations") ==
        "1,2,10");
    CHECK(s.scalar("SELECT count(*) FROM schema_migrations WHERE checksum ~ '^[0-9a-f]{64}$'") ==
          "3");
}

TEST_CASE("two runners at once apply every migration exactly once", "[migrations]") {
    TestSchema s(false);
    MigrationDir dir;
    // CREATE TABLE without IF NOT EXISTS fails if run twice; the sleep makes the runs overlap.
    dir.write("0001_slow.sql", "CREATE TABLE once (x int); SELECT pg_sleep(0.5);");
    dir.write("0002_after.sql", "CREATE TABLE after_once (x int);");
    std::optional<store::Result<store::MigrationReport>> a, b;
    std::thread ta([&] { a.emplace(store::migrate(s.url(), dir.path)); });
    std::thread tb([&] { b.emplace(store::migrate(s.url(), dir.path)); });
    ta.join();
    tb.join();
    REQUIRE(a->ok());
    REQUIRE(b->ok());
    // One runner applied both; the other waited for the lock and found nothing to do.
    CHECK((*a)->applied.size() + (*b)->applied.size() == 2);
    CHECK((*a)->present.size() + (*b)->present.size() == 2);
    CHECK(s.scalar("SELECT count(*) FROM schema_migrations") == "2");
}

TEST_CASE("a migration changed after it was applied is refused, and nothing runs", "[migrations]") {
    TestSchema s(false);
    MigrationDir dir;
    dir.write("0001_a.sql", "CREATE TABLE a (x int);");
    REQUIRE(store::migrate(s.url(), dir.path).ok());
    dir.write("0001_a.sql", "CREATE TABLE a (x int, y int);");
    dir.write("0002_b.sql", "CREATE TABLE b (x int);");
    auto r = store::migrate(s.url(), dir.path);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == StoreError::Kind::Invalid);
    CHECK_THAT(r.error().message, ContainsSubstring("0001_a.sql") && ContainsSubstring("changed"));
    CHECK_FALSE(table_exists(s, "b"));
    CHECK(s.scalar("SELECT count(*) FROM schema_migrations") == "1");
}

TEST_CASE("a failing migration is rolled back, and the ones before it stay", "[migrations]") {
    TestSchema s(false);
    MigrationDir dir;
    dir.write("0001_good.sql", "CREATE TABLE good (x int);");
    dir.write("0002_bad.sql", "CREATE TABLE half (x int); SELECT no_such_column FROM good;");
    auto r = store::migrate(s.url(), dir.path);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error().message, ContainsSubstring("0002_bad.sql"));
    CHECK(table_exists(s, "good"));
    CHECK_FALSE(table_exists(s, "half"));
    CHECK(s.scalar("SELECT count(*) FROM schema_migrations") == "1");
}

TEST_CASE("a migration directory with a number twice, or none at all, is refused", "[migrations]") {
    TestSchema s(false);
    MigrationDir dir;
    dir.write("0001_a.sql", "CREATE TABLE a (x int);");
    dir.write("1_b.sql", "CREATE TABLE b (x int);");
    auto twice = store::migrate(s.url(), dir.path);
    REQUIRE_FALSE(twice.ok());
    CHECK_THAT(twice.error().message, ContainsSubstring("number 1"));
    auto missing = store::migrate(s.url(), dir.path / "nowhere");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().kind == StoreError::Kind::Invalid);
    CHECK(s.scalar("SELECT count(*) FROM information_schema.tables WHERE table_schema = '" +
                   s.name() + "'") == "0");
}

TEST_CASE("a database applied by newer code (an unknown migration) is refused", "[migrations]") {
    TestSchema s(false);
    MigrationDir newer, older;
    newer.write("0001_a.sql", "CREATE TABLE a (x int);");
    newer.write("0002_b.sql", "CREATE TABLE b (x int);");
    older.write("0001_a.sql", "CREATE TABLE a (x int);");
    REQUIRE(store::migrate(s.url(), newer.path).ok());
    auto r = store::migrate(s.url(), older.path);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error().message, ContainsSubstring("0002_b.sql"));
}

TEST_CASE("migrating without a reachable database answers Unavailable", "[migrations]") {
    store_test::database_url();  // the suite still needs its database
    auto r =
        store::migrate("postgresql://postgres@127.0.0.1:1/nothing?connect_timeout=2", "migrations");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == StoreError::Kind::Unavailable);
}

#include "test_database.hpp"

#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <random>

#include "server/store/migrations.hpp"
#include "server/time/epoch_ms.hpp"

namespace store_test {

std::string database_url() {
    const char* url = std::getenv("SANTORINI_TEST_DATABASE_URL");
    if (!url || !*url)
        FAIL(
            "SANTORINI_TEST_DATABASE_URL is not set: the store tests need a PostgreSQL. Run "
            "them with scripts/with-postgres (scripts/test does), e.g. "
            "scripts/with-postgres ctest --test-dir build/release -R store.");
    return url;
}

std::string with_schema(const std::string& url, const std::string& schema,
                        const std::string& application_name) {
    if (url.rfind("postgres://", 0) == 0 || url.rfind("postgresql://", 0) == 0) {
        const char sep = url.find('?') == std::string::npos ? '?' : '&';
        return url + sep + "options=-csearch_path%3D" + schema +
               "&application_name=" + application_name;
    }
    return url + " options='-csearch_path=" + schema + "' application_name=" + application_name;
}

std::string unique_name(const std::string& prefix) {
    static std::atomic<int> counter{0};
    static const auto salt = std::random_device{}();
    return prefix + std::to_string(++counter) + "_" + std::to_string(salt % 1000000);
}

std::int64_t now_ms() {
    return server::now_epoch_ms();
}

TestSchema::TestSchema(bool migrated) : name_(unique_name("t_")) {
    const std::string base = database_url();
    {
        pqxx::connection c(base);
        pqxx::nontransaction n(c);
        n.exec("CREATE SCHEMA " + n.quote_name(name_));
    }
    url_ = with_schema(base, name_);
    if (migrated) {
        auto report = store::migrate(url_, "migrations");
        if (!report) FAIL("migrations failed: " << report.error().message);
    }
}

TestSchema::~TestSchema() {
    try {
        pqxx::connection c(database_url());
        pqxx::nontransaction n(c);
        n.exec("DROP SCHEMA " + n.quote_name(name_) + " CASCADE");
    } catch (...) {
        // The schema stays behind in a throwaway cluster: not worth failing a test over.
    }
}

std::string TestSchema::scalar(const std::string& sql) const {
    pqxx::connection c(url_);
    pqxx::nontransaction n(c);
    auto r = n.exec(sql);
    REQUIRE(r.size() == 1);
    return r[0][0].is_null() ? std::string("NULL") : r[0][0].as<std::string>();
}

void add_match(const TestSchema& schema, const std::string& match_id, const std::string& player_a,
               const std::string& player_b) {
    pqxx::connection c(schema.url());
    pqxx::work w(c);
    for (const auto& p : {player_a, player_b})
        w.exec_params(
            "INSERT INTO players (id, display_name, token_sha256) VALUES ($1::text, $1::text, "
            "encode(sha256(convert_to($1::text, 'UTF8')), 'hex')) ON CONFLICT DO NOTHING",
            p);
    w.exec_params(
        "INSERT INTO matches (id, game, settings, seed) VALUES ($1, 'santorini', '{}', 7)",
        match_id);
    w.exec_params(
        "INSERT INTO seats (match_id, seat, player_id, created_at) VALUES ($1, 0, $2, now()), "
        "($1, 1, $3, now())",
        match_id, player_a, player_b);
    w.commit();
}

}  // namespace store_test

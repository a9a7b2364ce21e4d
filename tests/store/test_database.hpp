#pragma once
// Each store test gets its own fresh schema in the database named by
// SANTORINI_TEST_DATABASE_URL (scripts/with-postgres starts one), so tests are independent and
// may run in parallel. Without the variable a test fails and says how to run it.
// The tests read the database directly through libpqxx to check what the store did.

#include <chrono>
#include <cstdint>
#include <pqxx/pqxx>
#include <string>

namespace store_test {

/// The database URL from the environment; FAILs the test when it is unset.
std::string database_url();

/// `url` with its search_path set to `schema` and the given application_name.
std::string with_schema(const std::string& url, const std::string& schema,
                        const std::string& application_name = "store_tests");

/// A fresh schema, dropped (with everything in it) at the end of the test.
class TestSchema {
  public:
    /// Creates the schema; with `migrated`, applies migrations/ to it (REQUIREs success).
    explicit TestSchema(bool migrated = true);
    ~TestSchema();
    TestSchema(const TestSchema&) = delete;
    TestSchema& operator=(const TestSchema&) = delete;

    const std::string& name() const { return name_; }
    /// The connection string whose search_path is this schema.
    const std::string& url() const { return url_; }
    /// A new connection to this schema.
    pqxx::connection connect() const { return pqxx::connection(url_); }
    /// The single value of a query (run in this schema).
    std::string scalar(const std::string& sql) const;

  private:
    std::string name_;
    std::string url_;
};

/// A fresh name: prefix + a counter + random digits.
std::string unique_name(const std::string& prefix);

/// ms since the epoch, now.
std::int64_t now_ms();

/// Creates a player and a 2-seat match (ids from `tag`) in the schema, with plain SQL.
void add_match(const TestSchema& schema, const std::string& match_id, const std::string& player_a,
               const std::string& player_b);

}  // namespace store_test

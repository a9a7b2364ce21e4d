#include "server/store/migrations.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

#include "server/store/pg.hpp"
#include "server/store/token_hash.hpp"

namespace store {

namespace {

using Kind = StoreError::Kind;

struct MigrationFile {
    long version = 0;
    std::string name;  ///< the file name
    std::string sql;
    std::string checksum;
};

// The number of a file named <digits>_<letters, digits, _ . -> .sql; -1 for any other name.
long migration_number(const std::string& name) {
    const std::string suffix = ".sql";
    std::size_t digits = 0;
    while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[digits]))) ++digits;
    if (digits == 0 || digits > 9 || digits >= name.size() || name[digits] != '_') return -1;
    if (name.size() < digits + 1 + suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return -1;
    for (std::size_t i = digits + 1; i < name.size() - suffix.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(name[i]);
        if (!std::isalnum(c) && c != '_' && c != '.' && c != '-') return -1;
    }
    return std::stol(name.substr(0, digits));
}

Result<std::vector<MigrationFile>> read_directory(const std::filesystem::path& directory) {
    std::error_code ec;
    if (!std::filesystem::is_directory(directory, ec))
        return StoreError{Kind::Invalid, "no migrations directory " + directory.string()};
    std::vector<MigrationFile> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
        const std::string name = entry.path().filename().string();
        const long version = migration_number(name);
        if (!entry.is_regular_file() || version < 0) continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        if (!in) return StoreError{Kind::Invalid, "cannot read migration " + name};
        MigrationFile f;
        f.version = version;
        f.name = name;
        f.sql = text.str();
        f.checksum = sha256_hex(f.sql);
        files.push_back(std::move(f));
    }
    if (ec)
        return StoreError{Kind::Invalid, "cannot list " + directory.string() + ": " + ec.message()};
    std::sort(files.begin(), files.end(),
              [](const auto& a, const auto& b) { return a.version < b.version; });
    for (std::size_t i = 1; i < files.size(); ++i)
        if (files[i].version == files[i - 1].version)
            return StoreError{Kind::Invalid, "two migrations have number " +
                                                 std::to_string(files[i].version) + ": " +
                                                 files[i - 1].name + " and " + files[i].name};
    return files;
}

// One lock per database and schema: tests (and deployments) may keep several schemas apart.
const std::string lock_key = "hashtext('santorini.migrations/' || coalesce(current_schema(), ''))";

Result<MigrationReport> run(pqxx::connection& c, const std::vector<MigrationFile>& files) {
    {
        pqxx::work w(c);
        w.exec0(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version bigint PRIMARY KEY,"
            " name text NOT NULL,"
            " checksum text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())");
        w.commit();
    }
    std::map<long, std::pair<std::string, std::string>> applied;  // version -> name, checksum
    {
        pqxx::read_transaction r(c);
        for (const auto& row : r.exec("SELECT version, name, checksum FROM schema_migrations"))
            applied[row[0].as<long>()] = {row[1].as<std::string>(), row[2].as<std::string>()};
    }
    // Check everything before applying anything.
    for (const auto& [version, what] : applied) {
        auto it = std::find_if(files.begin(), files.end(),
                               [v = version](const auto& f) { return f.version == v; });
        if (it == files.end())
            return StoreError{Kind::Invalid, "the database has migration " + what.first +
                                                 ", which is not in this directory (is this "
                                                 "server older than the database?)"};
        if (it->checksum != what.second)
            return StoreError{Kind::Invalid, "migration " + it->name +
                                                 " was changed after it was applied; add a new "
                                                 "migration instead of editing an applied one"};
    }
    MigrationReport report;
    for (const auto& f : files) {
        if (applied.count(f.version)) {
            report.present.push_back(f.name);
            continue;
        }
        try {
            pqxx::work w(c);
            w.exec(f.sql);  // the file is ours, not user input: run as a script
            w.exec_params0(
                "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                f.version, f.name, f.checksum);
            w.commit();
        } catch (const pqxx::sql_error& e) {
            if (pg::connection_lost(e)) throw;
            return StoreError{Kind::Invalid, "migration " + f.name + " failed: " + e.what()};
        }
        report.applied.push_back(f.name);
    }
    return report;
}

}  // namespace

Result<MigrationReport> migrate(const std::string& url, const std::filesystem::path& directory) {
    auto files = read_directory(directory);
    if (!files) return files.error();
    try {
        pqxx::connection c(url);
        {
            pqxx::nontransaction n(c);
            n.exec("SELECT pg_advisory_lock(" + lock_key + ")");
        }
        auto report = run(c, *files);
        // Closing the connection would release the lock too; say it explicitly.
        pqxx::nontransaction n(c);
        n.exec("SELECT pg_advisory_unlock(" + lock_key + ")");
        return report;
    } catch (const std::exception& e) {
        return pg::error_from(e);
    }
}

}  // namespace store

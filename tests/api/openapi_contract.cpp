#include "tests/api/openapi_contract.hpp"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/parser.hpp>

#include "protocol/json/basic_json.hpp"

extern char** environ;

namespace api_test {
namespace {

namespace http = boost::beast::http;
using json = nlohmann::json;

// The validator as a child process: one JSON line per answer in, one verdict line out.
class Validator {
  public:
    Validator() {
        std::filesystem::path script = std::filesystem::path(__FILE__).parent_path() / "validate_openapi.py";
        if (!std::filesystem::exists(script)) script = "tests/api/validate_openapi.py";
        int to_child[2];
        int from_child[2];
        if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0)
            throw std::runtime_error("openapi contract: pipe failed");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
        posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
        const std::string path = script.string();
        char python[] = "python3";
        char serve[] = "--serve";
        char* argv[] = {python, const_cast<char*>(path.c_str()), serve, nullptr};
        const int spawned = posix_spawnp(&pid_, "python3", &actions, nullptr, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(to_child[0]);
        ::close(from_child[1]);
        if (spawned != 0) throw std::runtime_error("openapi contract: cannot start python3");
        // A validator that died must not kill the tests with SIGPIPE: the write fails instead.
        std::signal(SIGPIPE, SIG_IGN);
        in_ = ::fdopen(to_child[1], "w");
        out_ = ::fdopen(from_child[0], "r");
    }
    ~Validator() {
        if (in_) std::fclose(in_);
        if (out_) std::fclose(out_);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
    Validator(const Validator&) = delete;
    Validator& operator=(const Validator&) = delete;

    // "" or why the answer breaks the contract.
    std::string check(const json& answer) {
        const std::string line = answer.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
        if (std::fwrite(line.data(), 1, line.size(), in_) != line.size() || std::fflush(in_) != 0)
            return "the validator is gone (see its output above)";
        std::string verdict;
        for (int c; (c = std::fgetc(out_)) != EOF && c != '\n';) verdict.push_back(static_cast<char>(c));
        if (verdict == "ok") return {};
        return verdict.empty() ? "the validator gave no verdict (see its output above)" : verdict;
    }

  private:
    pid_t pid_ = -1;
    std::FILE* in_ = nullptr;
    std::FILE* out_ = nullptr;
};

struct Contract {
    std::mutex mutex;
    std::unique_ptr<Validator> validator;
    std::string test_case;
    std::vector<std::string> violations;
    std::size_t checked = 0;
};

Contract& contract() {
    static Contract c;
    return c;
}

json answer_line(http::verb method, std::string_view target, std::string_view request_body,
                 const http::response<http::string_body>& response) {
    json headers = json::object();
    for (const auto& field : response) headers[std::string(field.name_string())] = std::string(field.value());
    return {{"method", std::string(http::to_string(method))},
            {"request", std::string(request_body)},
            {"target", std::string(target)},
            {"status", response.result_int()},
            {"headers", std::move(headers)},
            {"body", response.body()}};
}

// Under the lock: the verdict of the (lazily started) validator.
std::string verdict_locked(Contract& c, const json& line) {
    if (!c.validator) c.validator = std::make_unique<Validator>();
    return c.validator->check(line);
}

}  // namespace

void observe_raw_http(http::verb method, std::string_view target, const std::string& raw) {
    http::response_parser<http::string_body> parser;
    parser.eager(true);
    if (method == http::verb::head) parser.skip(true);
    boost::beast::error_code ec;
    parser.put(boost::asio::buffer(raw), ec);
    if (!ec && !parser.is_done()) parser.put_eof(ec);
    if (ec || !parser.is_header_done()) {
        if (raw.empty()) return;  // no answer at all: nothing to check
        Contract& c = contract();
        std::lock_guard lock(c.mutex);
        c.violations.push_back(c.test_case + ": " + std::string(target) + ": an answer that is not HTTP");
        return;
    }
    test::observe_http(method, target, parser.get());
}

void start_openapi_contract() {
    test::set_http_observer([](http::verb method, std::string_view target, std::string_view request_body,
                               const http::response<http::string_body>& response) {
        const json line = answer_line(method, target, request_body, response);
        Contract& c = contract();
        std::lock_guard lock(c.mutex);
        ++c.checked;
        std::string why = verdict_locked(c, line);
        if (!why.empty())
            c.violations.push_back(c.test_case + ": " + std::string(http::to_string(method)) + " " +
                                   std::string(target) + " -> " + std::to_string(response.result_int()) + ": " + why);
    });
}

void openapi_contract_case(std::string name) {
    Contract& c = contract();
    std::lock_guard lock(c.mutex);
    c.test_case = std::move(name);
}

std::vector<std::string> finish_openapi_contract(std::size_t& checked) {
    test::set_http_observer({});
    Contract& c = contract();
    std::lock_guard lock(c.mutex);
    c.validator.reset();
    checked = c.checked;
    return std::move(c.violations);
}

std::string openapi_verdict(http::verb method, std::string_view target, const http::response<http::string_body>& response,
                            std::string_view request_body) {
    Contract& c = contract();
    std::lock_guard lock(c.mutex);
    return verdict_locked(c, answer_line(method, target, request_body, response));
}

}  // namespace api_test

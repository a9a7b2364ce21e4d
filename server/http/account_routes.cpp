#include "server/http/account_routes.hpp"

#include <cctype>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/beast/http/field.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/verb.hpp>

#include "protocol/json/basic_json.hpp"
#include "server/accounts/accounts.hpp"
#include "server/accounts/preference_book.hpp"
#include "server/http/errors.hpp"
#include "server/http/route_table.hpp"

namespace server {
namespace {

using json = nlohmann::json;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

// What an answer given later needs of its request (the request itself is gone by then).
struct RequestShell {
    unsigned version = 11;
    bool keep_alive = true;
};

Response account_response(const RequestShell& shell, http::status status, std::string body) {
    Response response{status, shell.version};
    response.set(http::field::server, "santorini-server");
    response.set(http::field::content_type, "application/json");
    response.set("X-Content-Type-Options", "nosniff");
    // Answers carry tokens and are about one person: never cached.
    response.set(http::field::cache_control, "no-store");
    response.keep_alive(shell.keep_alive);
    response.body() = std::move(body);
    response.prepare_payload();
    return response;
}

Response account_error(const RequestShell& shell, http::status status, std::string_view message) {
    Response response = account_response(shell, status, http_error_body(status, message).dump());
    if (status == http::status::unauthorized) response.set(http::field::www_authenticate, "Bearer");
    return response;
}

Response wrong_method(const RequestShell& shell, std::string_view allow) {
    Response response = account_error(shell, http::status::method_not_allowed, "method not allowed");
    response.set(http::field::allow, allow);
    return response;
}

// The token of `Authorization: Bearer <token>`, or "".
std::string bearer_token(const Request& request) {
    const auto header = request[http::field::authorization];
    const std::string_view value(header.data(), header.size());
    constexpr std::string_view scheme = "Bearer ";
    if (value.size() <= scheme.size()) return {};
    for (std::size_t i = 0; i < scheme.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(value[i])) !=
            std::tolower(static_cast<unsigned char>(scheme[i])))
            return {};
    return std::string(value.substr(scheme.size()));
}

// The string fields `names` of a JSON object body, or nullopt (then `why` says what is wrong).
std::optional<std::vector<std::string>> string_fields(const Request& request,
                                                      std::initializer_list<const char*> names,
                                                      std::string& why) {
    const json body = json::parse(request.body(), nullptr, /*allow_exceptions=*/false);
    if (body.is_discarded() || !body.is_object()) {
        why = "body must be a JSON object";
        return std::nullopt;
    }
    std::vector<std::string> out;
    for (const char* name : names) {
        auto it = body.find(name);
        if (it == body.end() || !it->is_string()) {
            why = std::string("expected \"") + name + "\" as a string";
            return std::nullopt;
        }
        out.push_back(it->get<std::string>());
    }
    return out;
}

http::status status_of(AccountError::Kind kind) {
    switch (kind) {
        case AccountError::Kind::Invalid: return http::status::bad_request;
        case AccountError::Kind::Unauthorized: return http::status::unauthorized;
        case AccountError::Kind::Conflict: return http::status::conflict;
        case AccountError::Kind::TooMany: return http::status::too_many_requests;
        case AccountError::Kind::Busy: return http::status::service_unavailable;
        case AccountError::Kind::Unavailable: return http::status::service_unavailable;
    }
    return http::status::internal_server_error;
}

// Turns an Accounts answer into the response: `ok` with `fields` of the account, or the error.
Accounts::Reply answer(RequestShell shell, http::status ok, bool with_token, HttpReply reply) {
    return [shell, ok, with_token, reply = std::move(reply)](AccountResult result) {
        if (auto* e = std::get_if<AccountError>(&result)) {
            Response response = account_error(shell, status_of(e->kind), e->message);
            if (e->kind == AccountError::Kind::TooMany)
                response.set(http::field::retry_after, std::to_string(e->retry_after_s));
            if (e->kind == AccountError::Kind::Busy) response.set(http::field::retry_after, "1");
            return reply(std::move(response));
        }
        const AccountInfo& a = std::get<AccountInfo>(result);
        if (ok == http::status::no_content) return reply(account_response(shell, ok, ""));
        json body = {{"id", a.id},
                     {"name", a.name},
                     {"username", a.username.empty() ? json(nullptr) : json(a.username)}};
        if (with_token) body["token"] = a.token;
        reply(account_response(shell, ok, body.dump()));
    };
}

// Turns a PreferenceBook answer into the response: the preferences, or the error.
PreferenceBook::Reply preferences_answer(RequestShell shell, HttpReply reply) {
    return [shell, reply = std::move(reply)](PreferenceResult result) {
        if (auto* e = std::get_if<AccountError>(&result)) {
            Response response = account_error(shell, status_of(e->kind), e->message);
            if (e->kind == AccountError::Kind::Busy || e->kind == AccountError::Kind::Unavailable)
                response.set(http::field::retry_after, "1");
            return reply(std::move(response));
        }
        reply(account_response(shell, http::status::ok,
                               preferences_json(std::get<Preferences>(result)).dump()));
    };
}

}  // namespace

bool is_preferences_path(std::string_view path) {
    return path == "/api/me/preferences";
}

void handle_preferences_request(const Request& request, PreferenceBook& book, HttpReply reply) {
    const RequestShell shell{request.version(), request.keep_alive()};
    // HEAD as GET (the body is dropped on the way out, server/http/routes.cpp).
    if (request.method() == http::verb::get || request.method() == http::verb::head)
        return book.get(bearer_token(request), preferences_answer(shell, std::move(reply)));
    if (request.method() != http::verb::put) return reply(wrong_method(shell, allow_of("/api/me/preferences")));
    // Who asks first, then what: a request without a token learns nothing of the rules.
    std::string token = bearer_token(request);
    if (token.empty())
        return reply(account_error(shell, http::status::unauthorized, "no token"));
    if (request.body().size() > Preferences::max_body)
        return reply(account_error(shell, http::status::payload_too_large,
                                   "preferences over 16 KiB"));
    const json body = json::parse(request.body(), nullptr, /*allow_exceptions=*/false);
    if (body.is_discarded())
        return reply(account_error(shell, http::status::bad_request, "body is not valid JSON"));
    auto read = read_preferences(body);
    if (auto* why = std::get_if<std::string>(&read))
        return reply(account_error(shell, http::status::bad_request, *why));
    book.put(std::move(token), std::get<Preferences>(std::move(read)),
             preferences_answer(shell, std::move(reply)));
}

bool is_account_path(std::string_view path) {
    return path == "/api/accounts" || path == "/api/account" || path == "/api/accounts/password" ||
           path == "/api/sessions" || path == "/api/sessions/current";
}

void handle_account_request(const Request& request, std::string_view path, Accounts* accounts,
                            std::string_view client, HttpReply reply) {
    const RequestShell shell{request.version(), request.keep_alive()};
    const bool post = request.method() == http::verb::post;
    // The method first: a wrong one is 405 with or without a database.
    if (path == "/api/account" && request.method() != http::verb::get &&
        request.method() != http::verb::head)
        return reply(wrong_method(shell, allow_of("/api/account")));
    if (path == "/api/sessions/current" && request.method() != http::verb::delete_)
        return reply(wrong_method(shell, allow_of("/api/sessions/current")));
    if ((path == "/api/accounts" || path == "/api/sessions" || path == "/api/accounts/password") &&
        !post)
        return reply(wrong_method(shell, path == "/api/accounts"   ? allow_of("/api/accounts")
                                         : path == "/api/sessions" ? allow_of("/api/sessions")
                                                                   : allow_of("/api/accounts/password")));
    if (!accounts)
        return reply(account_error(shell, http::status::service_unavailable,
                                   "accounts need the server's database"));
    std::string why;
    if (path == "/api/account")
        return accounts->who(bearer_token(request),
                             answer(shell, http::status::ok, false, std::move(reply)));
    if (path == "/api/sessions/current")
        return accounts->sign_out(bearer_token(request),
                                  answer(shell, http::status::no_content, false, std::move(reply)));
    if (path == "/api/accounts") {
        auto fields = string_fields(request, {"username", "password"}, why);
        if (!fields) return reply(account_error(shell, http::status::bad_request, why));
        return accounts->sign_up(bearer_token(request), std::move((*fields)[0]),
                                 std::move((*fields)[1]),
                                 answer(shell, http::status::created, false, std::move(reply)));
    }
    if (path == "/api/sessions") {
        auto fields = string_fields(request, {"username", "password"}, why);
        if (!fields) return reply(account_error(shell, http::status::bad_request, why));
        return accounts->sign_in(std::move((*fields)[0]), std::move((*fields)[1]),
                                 std::string(client),
                                 answer(shell, http::status::created, true, std::move(reply)));
    }
    auto fields = string_fields(request, {"old_password", "new_password"}, why);
    if (!fields) return reply(account_error(shell, http::status::bad_request, why));
    accounts->change_password(bearer_token(request), std::move((*fields)[0]),
                              std::move((*fields)[1]),
                              answer(shell, http::status::ok, false, std::move(reply)));
}

}  // namespace server

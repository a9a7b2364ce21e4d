#pragma once
// The account routes (docs/api.md, "Accounts"), answered from Accounts' pool. A request names
// its player with `Authorization: Bearer <token>` (the token of POST /api/guests or of a
// sign-in), never in the URL.
//
//   POST   /api/accounts           {"username","password"} + token: the guest claims an account.
//                                  201 {"id","name","username"}; 400 bad username or password;
//                                  401 unknown token; 409 username taken, or already an account
//   GET    /api/account            + token: 200 {"id","name","username"} (username null: a guest)
//   POST   /api/sessions           {"username","password"}: sign-in on this device.
//                                  201 {"id","name","username","token"}; 401 wrong username or
//                                  password; 429 + Retry-After past the attempts per username or
//                                  per address
//   DELETE /api/sessions/current   + token: sign-out (revokes this token). 204
//   POST   /api/accounts/password  {"old_password","new_password"} + token: 200 {"id","name",
//                                  "username"}; every other token of the player is revoked
// Without a database: 503. Errors are {"error","code"} like every route's.
//
// The player's preferences (docs/api.md, "Preferences"), answered from the PreferenceBook
// (stored, or in memory without a database):
//   GET    /api/me/preferences     + token: 200 {"language","chat_off","muted"}
//   PUT    /api/me/preferences     the whole object + token: 200 it as kept; 400 a bad or
//                                  unknown field; 413 a body over 16 KiB; 401 no or an unknown
//                                  token; 503 (Retry-After) the database is away or busy

#include <string_view>

#include "server/http/routes.hpp"

namespace server {

/// True when `path` is one of the account routes above.
bool is_account_path(std::string_view path);

/// Answers an account request from the client address `client` with `accounts` (null: no
/// database). `reply` is called exactly once: inline for a refusal, else on the accounts' pool.
void handle_account_request(const http::request<http::string_body>& request,
                            std::string_view path, Accounts* accounts, std::string_view client,
                            HttpReply reply);

class PreferenceBook;

/// True for the preferences route above.
bool is_preferences_path(std::string_view path);

/// Answers a preferences request with `book`. `reply` is called exactly once: inline for a
/// refusal or without a database, else on the book's pool.
void handle_preferences_request(const http::request<http::string_body>& request,
                                PreferenceBook& book, HttpReply reply);

}  // namespace server

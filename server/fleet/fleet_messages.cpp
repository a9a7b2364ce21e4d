#include "server/fleet/fleet_messages.hpp"

#include <algorithm>
#include <iterator>
#include <optional>

namespace server::fleet {

using nlohmann::json;

namespace {

/// A parsed payload's fields, read without exceptions: the first missing or mistyped field is
/// remembered and every later read is skipped.
class Fields {
  public:
    explicit Fields(const json& object) : object_(object) {}

    std::uint64_t connection() {
        const json* v = field("connection");
        if (v && v->is_number_unsigned()) return v->get<std::uint64_t>();
        fail("connection", "an unsigned integer");
        return 0;
    }
    std::string string(const char* key) {
        const json* v = field(key);
        if (v && v->is_string()) return v->get<std::string>();
        fail(key, "a string");
        return {};
    }
    /// A non-empty string (ids).
    std::string id(const char* key) {
        std::string s = string(key);
        if (!error_ && s.empty()) fail(key, "a non-empty string");
        return s;
    }
    json array(const char* key) {
        const json* v = field(key);
        if (v && v->is_array()) return *v;
        fail(key, "an array");
        return json::array();
    }
    /// A live entry: an object, or null (over).
    json entry(const char* key) {
        const json* v = field(key);
        if (v && (v->is_object() || v->is_null())) return *v;
        fail(key, "an object or null");
        return nullptr;
    }

    /// Exactly one of two SHA-256 fields is set (64 lowercase hex digits), the other empty.
    void one_sha256(const char* a_key, const std::string& a, const char* b_key,
                    const std::string& b) {
        if (error_) return;
        if (a.empty() == b.empty()) {
            fail(a_key, "set when the other is not (one of two)");
            return;
        }
        const std::string& set = a.empty() ? b : a;
        const bool hex = set.size() == 64 && std::all_of(set.begin(), set.end(), [](char c) {
                             return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                         });
        if (!hex) fail(a.empty() ? b_key : a_key, "a SHA-256 in 64 lowercase hex digits");
    }

    const std::optional<ParseError>& error() const { return error_; }

  private:
    const json* field(const char* key) {
        if (error_) return nullptr;
        auto it = object_.find(key);
        return it == object_.end() ? nullptr : &*it;
    }
    void fail(const char* key, const char* what) {
        if (!error_) error_ = ParseError{std::string("field \"") + key + "\" must be " + what};
    }

    const json& object_;
    std::optional<ParseError> error_;
};

Message read_connected(Fields& f) {
    Connected m;
    m.connection = f.connection();
    m.player = f.string("player");
    m.name = f.string("name");
    return m;
}
Message read_request(Fields& f) {
    Request m;
    m.connection = f.connection();
    m.player = f.string("player");
    m.name = f.string("name");
    m.text = f.string("text");
    return m;
}
Message read_deliver(Fields& f) {
    Deliver m;
    m.connection = f.connection();
    m.text = f.string("text");
    return m;
}
Message read_gone(Fields& f) {
    return Gone{f.connection()};
}
Message read_restart(Fields& f) {
    return Restart{f.connection()};
}
Message read_moved(Fields& f) {
    return Moved{f.id("match")};
}
Message read_live(Fields& f) {
    Live m;
    m.match = f.id("match");
    m.owner = f.id("owner");
    m.entry = f.entry("entry");
    return m;
}
Message read_lobbies(Fields& f) {
    return Lobbies{f.array("list")};
}
Message read_queues(Fields& f) {
    return Queues{f.array("list")};
}
Message read_adopt(Fields& f) {
    return Adopt{f.id("match")};
}
Message read_sync(Fields&) {
    return Sync{};
}
Message read_leader(Fields&) {
    return Leader{};
}
Message read_bye(Fields&) {
    return Bye{};
}
Message read_revoked(Fields& f) {
    Revoked m;
    m.player = f.id("player");
    m.token_sha256 = f.string("token_sha256");
    m.keep_sha256 = f.string("keep_sha256");
    f.one_sha256("token_sha256", m.token_sha256, "keep_sha256", m.keep_sha256);
    return m;
}

struct Kind {
    std::string_view name;
    Message (*read)(Fields&);
};

/// The wire names, in the variant's order (type_name indexes this by the variant's index).
constexpr Kind kinds[] = {
    {"connected", read_connected}, {"request", read_request}, {"deliver", read_deliver},
    {"gone", read_gone},           {"moved", read_moved},     {"live", read_live},
    {"lobbies", read_lobbies},     {"queues", read_queues},   {"adopt", read_adopt},
    {"sync", read_sync},           {"leader", read_leader},   {"bye", read_bye},
    {"revoked", read_revoked},     {"restart", read_restart},
};
static_assert(std::size(kinds) == std::variant_size_v<Message>);

/// The common head of every message.
json head(std::string_view type) {
    return json{{"version", message_version}, {"type", type}};
}

}  // namespace

std::variant<Message, ParseError> parse(std::string_view payload) {
    const json object = json::parse(payload, nullptr, /*allow_exceptions=*/false);
    if (!object.is_object()) return ParseError{"not a JSON object"};
    auto version = object.find("version");
    if (version == object.end() || !version->is_number_integer()) return ParseError{"no version"};
    if (version->get<std::int64_t>() != message_version)
        return ParseError{"version " + version->dump() + " (this node speaks " +
                          std::to_string(message_version) + ")"};
    auto type = object.find("type");
    if (type == object.end() || !type->is_string()) return ParseError{"no type"};
    const auto& name = type->get_ref<const std::string&>();
    for (const Kind& kind : kinds) {
        if (kind.name != name) continue;
        Fields fields(object);
        Message message = kind.read(fields);
        if (fields.error()) return ParseError{name + ": " + fields.error()->reason};
        return message;
    }
    return ParseError{"unknown type \"" + name + "\""};
}

std::string_view type_name(const Message& m) {
    return kinds[m.index()].name;
}

std::string write(const Connected& m) {
    json j = head("connected");
    j["connection"] = m.connection;
    j["player"] = m.player;
    j["name"] = m.name;
    return j.dump();
}

std::string write(const Request& m) {
    json j = head("request");
    j["connection"] = m.connection;
    j["player"] = m.player;
    j["name"] = m.name;
    j["text"] = m.text;
    return j.dump();
}

std::string write(const Deliver& m) {
    // The most frequent message (every event a remote viewer gets): written without building
    // an object around the text.
    std::string out = R"({"version":)" + std::to_string(message_version) +
                      R"(,"type":"deliver","connection":)" + std::to_string(m.connection) +
                      R"(,"text":)";
    out += json(m.text).dump();
    out += '}';
    return out;
}

std::string write(const Gone& m) {
    json j = head("gone");
    j["connection"] = m.connection;
    return j.dump();
}

std::string write(const Restart& m) {
    json j = head("restart");
    j["connection"] = m.connection;
    return j.dump();
}

std::string write(const Moved& m) {
    json j = head("moved");
    j["match"] = m.match;
    return j.dump();
}

std::string write(const Live& m) {
    json j = head("live");
    j["match"] = m.match;
    j["owner"] = m.owner;
    j["entry"] = m.entry;
    return j.dump();
}

std::string write(const Lobbies& m) {
    json j = head("lobbies");
    j["list"] = m.list;
    return j.dump();
}

std::string write(const Queues& m) {
    json j = head("queues");
    j["list"] = m.list;
    return j.dump();
}

std::string write(const Adopt& m) {
    json j = head("adopt");
    j["match"] = m.match;
    return j.dump();
}

std::string write(const Sync&) {
    return head("sync").dump();
}
std::string write(const Leader&) {
    return head("leader").dump();
}
std::string write(const Bye&) {
    return head("bye").dump();
}
std::string write(const Revoked& m) {
    json j = head("revoked");
    j["player"] = m.player;
    j["token_sha256"] = m.token_sha256;
    j["keep_sha256"] = m.keep_sha256;
    return j.dump();
}

std::string write(const Message& m) {
    return std::visit([](const auto& body) { return write(body); }, m);
}

}  // namespace server::fleet

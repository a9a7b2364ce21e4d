#include "server/rooms/lobby_chat.hpp"

#include <algorithm>

namespace server {

nlohmann::json LobbyChatLine::to_json() const {
    return {{"n", n}, {"at_ms", at_ms}, {"player", player}, {"name", name}, {"text", text}};
}

LobbyChatLine LobbyChatLine::from_json(const nlohmann::json& j) {
    return {j.at("n").get<std::uint64_t>(), j.at("at_ms").get<std::int64_t>(),
            j.at("player").get<std::string>(), j.at("name").get<std::string>(),
            j.at("text").get<std::string>()};
}

const LobbyChatLine& LobbyChatLog::add(LobbyChatLine line) {
    line.n = ++last_;
    keep(std::move(line));
    return lines_.back();
}

void LobbyChatLog::restore(LobbyChatLine line) {
    last_ = std::max(last_, line.n);
    keep(std::move(line));
}

void LobbyChatLog::keep(LobbyChatLine line) {
    const std::size_t size = line.to_json().dump().size();
    lines_.push_back(std::move(line));
    sizes_.push_back(size);
    bytes_ += size;
    while (lines_.size() > 1 && (lines_.size() > max_lines || bytes_ > max_bytes)) {
        bytes_ -= sizes_.front();
        sizes_.pop_front();
        lines_.pop_front();
    }
}

nlohmann::json LobbyChatLog::to_json() const {
    nlohmann::json out = nlohmann::json::array();
    for (const LobbyChatLine& line : lines_) out.push_back(line.to_json());
    return out;
}

}  // namespace server

#include "protocol/santorini_view.hpp"

#include "protocol/messages.hpp"
#include "protocol/santorini_json.hpp"

namespace protocol {
void write_state(const santorini::State& seen, const santorini::StepList* legal, JsonText& out) {
    out.raw(state_json(seen, legal).dump());
}
void write_state_patch(const santorini::State& from, const santorini::StepList* from_legal,
                       const santorini::State& to, const santorini::StepList* to_legal,
                       std::string_view prefix, PatchText& patch) {
    auto ops = diff(state_json(from, from_legal), state_json(to, to_legal));
    for (const auto& op : ops) {
        const std::string path = std::string(prefix) + op["path"].get<std::string>();
        const std::string kind = op["op"].get<std::string>();
        if (kind == "remove")
            patch.remove(path);
        else if (kind == "add")
            patch.add(path).raw(op["value"].dump());
        else
            patch.replace(path).raw(op["value"].dump());
    }
}
}  // namespace protocol

// The one instantiation of nlohmann::json's members (protocol/json/basic_json.hpp says why).
#include "protocol/json/basic_json.hpp"

template class nlohmann::basic_json<>;

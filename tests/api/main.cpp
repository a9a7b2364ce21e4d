// The API tests' main: Catch2's session, with every HTTP answer the tests receive checked against
// docs/openapi.yaml (tests/api/openapi_contract.hpp). An answer that breaks the contract fails
// the run, even when the test that received it passed.

#include <cstdio>
#include <string>
#include <vector>

#include <catch2/catch_session.hpp>
#include <catch2/catch_test_case_info.hpp>
#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>

#include "tests/api/openapi_contract.hpp"

namespace {

class ContractCase : public Catch::EventListenerBase {
  public:
    using Catch::EventListenerBase::EventListenerBase;
    void testCaseStarting(const Catch::TestCaseInfo& info) override { api_test::openapi_contract_case(info.name); }
};

}  // namespace

CATCH_REGISTER_LISTENER(ContractCase)

int main(int argc, char* argv[]) {
    api_test::start_openapi_contract();
    const int result = Catch::Session().run(argc, argv);
    std::size_t checked = 0;
    const std::vector<std::string> violations = api_test::finish_openapi_contract(checked);
    if (checked > 0) std::printf("docs/openapi.yaml: %zu HTTP answers checked, %zu break it\n", checked, violations.size());
    for (const std::string& line : violations) std::printf("  %s\n", line.c_str());
    return violations.empty() ? result : (result != 0 ? result : 1);
}

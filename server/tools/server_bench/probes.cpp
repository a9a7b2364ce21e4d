#include "server/tools/server_bench/probes.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace server_bench {

/// The server's resident set in KiB (from /proc), or 0.
long resident_kib(int pid) {
    if (pid <= 0) return 0;
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
    return 0;
}

/// A process's CPU time (user + system) in seconds, from /proc/<pid>/stat, or 0.
double process_cpu_seconds(int pid) {
    if (pid <= 0) return 0;
    std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const auto paren = text.rfind(')');
    if (paren == std::string::npos) return 0;
    std::istringstream fields(text.substr(paren + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i) {  // field 3 is the state
        if (i == 14) utime = std::stoull(field);
        if (i == 15) stime = std::stoull(field);
    }
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

/// This process's CPU time: user and system seconds.
std::pair<double, double> own_cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
    return {seconds(usage.ru_utime), seconds(usage.ru_stime)};
}

/// The whole machine's busy and total CPU ticks (from /proc/stat).
std::pair<double, double> machine_ticks() {
    std::ifstream file("/proc/stat");
    std::string cpu;
    double value = 0, total = 0, idle = 0;
    file >> cpu;
    for (int i = 0; i < 8 && file >> value; ++i) {
        total += value;
        if (i == 3 || i == 4) idle += value;  // idle, iowait
    }
    return {total - idle, total};
}

/// The soft limit on open files raised to the hard one; the new soft limit.
rlim_t raise_open_files() {
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) != 0) return 0;
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    getrlimit(RLIMIT_NOFILE, &files);
    return files.rlim_cur;
}

}  // namespace server_bench

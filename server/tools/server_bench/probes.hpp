// What server-bench reads off the machine and the server's process: CPU time, resident memory,
// the open-file limit (Linux /proc and getrusage).
#pragma once

#include <sys/resource.h>

#include <utility>

namespace server_bench {

/// The server's resident set in KiB (from /proc), or 0.
long resident_kib(int pid);

/// A process's CPU time (user + system) in seconds, from /proc/<pid>/stat, or 0.
double process_cpu_seconds(int pid);

/// This process's CPU time: user and system seconds.
std::pair<double, double> own_cpu_seconds();

/// The whole machine's busy and total CPU ticks (from /proc/stat).
std::pair<double, double> machine_ticks();

/// The soft limit on open files raised to the hard one; the new soft limit.
rlim_t raise_open_files();

}  // namespace server_bench

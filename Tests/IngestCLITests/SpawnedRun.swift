import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts `path` with `arguments`, standard output and error to /dev/null (standard
/// input from `stdin` when given), with an empty signal mask and default signal
/// actions; returns its process id.
func spawnWithSignalsUnblocked(_ path: String, _ arguments: [String], stdin: Int32? = nil) throws -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid = pid_t()
    let result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
    return pid
}

/// Polls every 5 ms, for up to `seconds`, until `ready()` holds or `pid` has ended;
/// whether `pid` is still running then (if not, it has been waited for).
func isStillRunning(_ pid: pid_t, within seconds: TimeInterval, until ready: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    var status: Int32 = 0
    while true {
        if waitpid(pid, &status, WNOHANG) == pid { return false }
        if try ready() || Date() >= deadline { return true }
        usleep(5_000)
    }
}

/// Waits `seconds` (0: none) unless `pid` ends before; whether it is still running.
func isStillRunning(_ pid: pid_t, within seconds: TimeInterval = 0) -> Bool {
    isStillRunning(pid, within: seconds) { false }
}

/// Sends `signal` to `pid` and waits for it to end: its wait status, and the seconds
/// that took.
func signalAndWait(_ pid: pid_t, _ signal: Int32) -> (status: Int32, seconds: TimeInterval) {
    let sent = Date()
    kill(pid, signal)
    var status: Int32 = 0
    _ = waitpid(pid, &status, 0)
    return (status, Date().timeIntervalSince(sent))
}

/// Waits up to `seconds` for `pid` to end: its exit status, or `nil` if it did not
/// end in time (it is killed then) or ended by a signal.
func waitForExit(_ pid: pid_t, within seconds: TimeInterval) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
        guard Date() < deadline else {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            return nil
        }
        usleep(5_000)
    }
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
}

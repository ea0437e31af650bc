import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real PostgreSQL server for the tests, started by them: `initdb` into a temporary
/// directory, `pg_ctl start` listening on a Unix socket only (no TCP), `fsync` off.
///
/// The suites share one server (``shared``), started the first time a test asks for it
/// and stopped (`pg_ctl stop -m immediate`, directory removed) when the test process
/// exits; each test works in a database of its own (``makeDatabase()``). A test that
/// stops or restarts a server starts one of its own (``start(name:)``).
///
/// PostgreSQL refuses to run as root. When the tests run as root (CI, containers),
/// the server programs run as the unprivileged user `ingest-pgtest` through `runuser`,
/// the user created with `useradd` if missing; the tests themselves connect as the
/// database superuser `ingest` over the socket, with trust authentication.
///
/// The server programs are found in `PG_BINDIR`, else the newest
/// `/usr/lib/postgresql/*/bin` (Debian's `postgresql` package), else `pg_config --bindir`.
/// Without them the suites skip — unless `CI` is set: in CI a missing server is a failure.
public final class TestPostgresServer: @unchecked Sendable {
    /// The temporary directory holding the cluster, the socket and the log.
    public let root: String
    public var dataDirectory: String { root + "/data" }
    /// The Unix-socket directory (`host=` in a connection string).
    public var socketDirectory: String { root + "/socket" }
    public var logFile: String { root + "/server.log" }
    /// The database superuser, trusted over the socket.
    public static let superuser = "ingest"
    /// A user that must give a password (SCRAM), for the authentication tests.
    public static let passwordUser = "ingest_password_user"
    public static let password = "correct horse: battery \\ staple"

    private let lock = NSLock()
    private var databaseCount = 0
    public private(set) var isRunning = false

    /// The server the suites share, started on first use.
    public static let shared: Result<TestPostgresServer, any Error> = Result { try start(name: "shared") }

    /// Whether the PostgreSQL suites run: the server programs are here, or CI is set
    /// (then their absence fails the tests instead of skipping them).
    public static let enabled = PostgresPrograms.directory != nil || ProcessInfo.processInfo.environment["CI"] != nil

    private init(root: String) {
        self.root = root
    }

    /// Initialises and starts a new server in a temporary directory of its own.
    public static func start(name: String) throws -> TestPostgresServer {
        guard let programs = PostgresPrograms.directory else {
            throw TestServerError(
                """
                the PostgreSQL server programs (initdb, pg_ctl, postgres) were not found in PG_BINDIR, \
                /usr/lib/postgresql/*/bin or pg_config --bindir; install Debian's postgresql package \
                (.ci/run does)
                """)
        }
        var template = Array("/tmp/ingest-pg-\(name)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw TestServerError("cannot make a temporary directory: \(errno)")
        }
        let server = TestPostgresServer(root: String(cString: made))
        do {
            try server.initialise(programs: programs)
            try server.startServer(programs: programs)
            registry.add(server)
            try server.psql(
                "CREATE ROLE \(passwordUser) LOGIN PASSWORD '\(password.replacingOccurrences(of: "'", with: "''"))'")
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    private func initialise(programs: String) throws {
        try ServerUser.prepare(directory: root)
        try ServerUser.run(
            programs + "/initdb",
            [
                "-D", dataDirectory, "-U", Self.superuser, "-A", "trust",
                "-E", "UTF8", "--no-locale", "--no-sync"
            ], log: root + "/initdb.log")
        try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: false)
        try ServerUser.giveAway(socketDirectory)
        // The superuser is trusted; everyone else gives a password (SCRAM).
        try """
        local all \(Self.superuser) trust
        local all all scram-sha-256
        """.write(toFile: dataDirectory + "/pg_hba.conf", atomically: false, encoding: .utf8)
        try ServerUser.giveAway(dataDirectory + "/pg_hba.conf")
        // The watchdog stops the server should this process die without running atexit.
        _ = try ServerUser.spawn(
            "/bin/sh",
            [
                "-c",
                """
                while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
                \(ServerUser.commandPrefix.joined(separator: " ")) '\(programs)/pg_ctl' -D '\(dataDirectory)' stop -m immediate >/dev/null 2>&1
                rm -rf '\(root)'
                """
            ], log: "/dev/null", asServerUser: false, wait: false)
    }

    private func startServer(programs: String) throws {
        let options =
            "-k \(socketDirectory) -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60"
        try ServerUser.run(
            programs + "/pg_ctl", ["-D", dataDirectory, "-l", logFile, "-w", "-t", "60", "-o", options, "start"],
            log: root + "/pg_ctl.log")
        lock.withLock { isRunning = true }
    }

    /// Stops the server at once (as a crash or `kill -9` of the postmaster would) and
    /// starts it again on the same socket: the sessions it had are gone.
    public func restart() throws {
        guard let programs = PostgresPrograms.directory else { return }
        try ServerUser.run(
            programs + "/pg_ctl", ["-D", dataDirectory, "-w", "stop", "-m", "immediate"], log: root + "/pg_ctl.log")
        lock.withLock { isRunning = false }
        try startServer(programs: programs)
    }

    /// Stops the server (`-m immediate`) and removes its directory; safe to call twice.
    public func stop() {
        if let programs = PostgresPrograms.directory, lock.withLock({ isRunning }) {
            try? ServerUser.run(
                programs + "/pg_ctl", ["-D", dataDirectory, "-w", "stop", "-m", "immediate"], log: root + "/pg_ctl.log")
            lock.withLock { isRunning = false }
        }
        try? FileManager.default.removeItem(atPath: root)
        Self.registry.remove(self)
    }

    /// A new, empty database for one test.
    public func makeDatabase(_ hint: String = "test") throws -> String {
        let number = lock.withLock {
            databaseCount += 1
            return databaseCount
        }
        let name = "\(hint)_\(number)"
        try psql("CREATE DATABASE \(name)")
        return name
    }

    /// A connection string for `database` as the trusted superuser.
    ///
    /// It waits two minutes to connect, not libpq's ten seconds: under ThreadSanitizer,
    /// with every suite at once on two cores, a connection has taken longer than ten.
    public func uri(_ database: String, user: String = superuser) -> String {
        "postgresql:///\(database)?host=\(socketDirectory.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))!)&user=\(user)&connect_timeout=120"
    }

    /// Runs `sql` with `psql` (an independent client) in `database`, returning the rows
    /// as lists of fields; NULL is `nil`.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> [[String?]] {
        guard let programs = PostgresPrograms.directory else { throw TestServerError("no psql") }
        let output = root + "/psql-\(UUID().uuidString)"
        defer {
            unlink(output)
            unlink(output + ".err")
        }
        let status = try ServerUser.spawn(
            programs + "/psql",
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-F", "\u{1F}", "-R", "\u{1E}", "-P", "null=\u{1A}",
                "-h", socketDirectory, "-U", Self.superuser, "-d", database, "-c", sql
            ], log: output, errors: output + ".err", asServerUser: false, wait: true)
        guard status == 0 else {
            let errorText = (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? ""
            throw TestServerError("psql -c \(sql.debugDescription) failed (\(status)): \(errorText)")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        if text.isEmpty { return [] }
        return text.split(separator: "\u{1E}", omittingEmptySubsequences: false).map { row in
            row.split(separator: "\u{1F}", omittingEmptySubsequences: false).map { $0 == "\u{1A}" ? nil : String($0) }
        }
    }

    /// The single value `sql` returns.
    public func value(_ sql: String, database: String) throws -> String? {
        let rows = try psql(sql, database: database)
        guard rows.count == 1, rows[0].count == 1 else { throw TestServerError("\(sql) returned \(rows)") }
        return rows[0][0]
    }

    /// The tables in `public`, sorted: what a test checks for strays.
    public func tables(in database: String) throws -> [String] {
        try psql("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename", database: database)
            .map { $0[0]! }
    }

    // MARK: lifetime

    /// The servers to stop when the process exits.
    private static let registry = Registry()

    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var servers: [ObjectIdentifier: TestPostgresServer] = [:]
        private var hooked = false

        func add(_ server: TestPostgresServer) {
            let hook = lock.withLock { () -> Bool in
                servers[ObjectIdentifier(server)] = server
                defer { hooked = true }
                return !hooked
            }
            if hook { atexit { TestPostgresServer.registry.stopAll() } }
        }

        func remove(_ server: TestPostgresServer) {
            _ = lock.withLock { servers.removeValue(forKey: ObjectIdentifier(server)) }
        }

        func stopAll() {
            for server in lock.withLock({ Array(servers.values) }) { server.stop() }
        }
    }
}

public struct TestServerError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Where the PostgreSQL server programs are.
public enum PostgresPrograms {
    public static let directory: String? = {
        let fileManager = FileManager.default
        func hasPrograms(_ directory: String) -> Bool {
            ["initdb", "pg_ctl", "postgres", "psql"].allSatisfy {
                fileManager.isExecutableFile(atPath: directory + "/" + $0)
            }
        }
        if let given = ProcessInfo.processInfo.environment["PG_BINDIR"], hasPrograms(given) { return given }
        let versions = (try? fileManager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.compactMap(Int.init).sorted(by: >) {
            let directory = "/usr/lib/postgresql/\(version)/bin"
            if hasPrograms(directory) { return directory }
        }
        for config in ["/usr/bin/pg_config", "/usr/local/bin/pg_config", "/opt/homebrew/bin/pg_config"]
        where fileManager.isExecutableFile(atPath: config) {
            let output = NSTemporaryDirectory() + "/ingest-pg-config-\(getpid())"
            defer { unlink(output) }
            guard
                (try? ServerUser.spawn(
                    config, ["--bindir"], log: output, errors: "/dev/null", asServerUser: false, wait: true)) == 0,
                let text = try? String(contentsOfFile: output, encoding: .utf8)
            else { continue }
            let directory = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if hasPrograms(directory) { return directory }
        }
        return nil
    }()
}

/// Who runs the server programs: the current user, or — as root, whom PostgreSQL
/// refuses — the unprivileged `ingest-pgtest`, through `runuser`.
enum ServerUser {
    static let name = "ingest-pgtest"
    static let isRoot = geteuid() == 0

    /// `runuser -u ingest-pgtest --` as root, nothing otherwise.
    static var commandPrefix: [String] { isRoot ? ["runuser", "-u", name, "--"] : [] }

    /// Creates the user if needed and gives it `directory`.
    static func prepare(directory: String) throws {
        guard isRoot else { return }
        if getpwnam(name) == nil {
            try run(
                "/usr/sbin/useradd",
                [
                    "--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
                    "--shell", "/usr/sbin/nologin", name
                ], log: directory + "/useradd.log", asServerUser: false)
        }
        try giveAway(directory)
    }

    /// Makes the server user own `path`.
    static func giveAway(_ path: String) throws {
        guard isRoot else { return }
        guard let user = getpwnam(name) else { throw TestServerError("the user \(name) does not exist") }
        guard chown(path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
            throw TestServerError("cannot give \(path) to \(name): \(String(cString: strerror(errno)))")
        }
    }

    /// Runs a program (as the server user unless told otherwise), its output appended
    /// to `log`; throws with the log's text when it fails.
    static func run(_ program: String, _ arguments: [String], log: String, asServerUser: Bool = true) throws {
        let status = try spawn(program, arguments, log: log, asServerUser: asServerUser, wait: true)
        guard status == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw TestServerError(
                "\(([program] + arguments).joined(separator: " ")) failed (\(status)): \(text.suffix(2_000))")
        }
    }

    /// Starts a program with `posix_spawn`, standard input from /dev/null and output to
    /// `log` (standard error to `errors` if given), every other descriptor of this process closed; with `wait`, returns its
    /// exit status, else its process id.
    ///
    /// Foundation's `Process` is not used for the server programs: `pg_ctl start` leaves
    /// the server running in the background, and a server that inherited the descriptor
    /// `Process` watches for the end of its child would make `waitUntilExit()` wait
    /// for the server's end. Descriptors of this process (other tests' pipes and
    /// sockets) are closed by a `bash` that then runs the program (`sh` closes only descriptors 0 to 9).
    @discardableResult
    static func spawn(
        _ program: String, _ arguments: [String], log: String, errors: String? = nil, asServerUser: Bool,
        wait: Bool
    ) throws -> Int32 {
        let closeAndRun =
            #"for fd in $(ls /proc/$$/fd 2>/dev/null); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$@""#
        let command =
            ["/bin/bash", "-c", closeAndRun, "bash"] + (asServerUser ? commandPrefix : []) + [program] + arguments
        let environment = ["PATH=/usr/bin:/bin:/usr/sbin:/sbin", "LANG=C.UTF-8"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if let errors {
            posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/bash", &actions, nil, argv, envp)
        guard result == 0 else {
            throw TestServerError("cannot start \(program): \(String(cString: strerror(result)))")
        }
        guard wait else { return pid }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw TestServerError("waitpid: \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED / WEXITSTATUS, spelled out (the C macros are not imported).
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

/// A TCP port on the loopback that nothing listens on (bound, noted, closed), for
/// tests of a connection refused.
public func unusedLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw TestServerError("socket: \(errno)") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard bound == 0 else { throw TestServerError("bind: \(errno)") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

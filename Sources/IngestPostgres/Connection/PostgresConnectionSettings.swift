#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import IngestCore

/// Where and as whom to connect to PostgreSQL, resolved the way libpq resolves it:
/// the connection string first (`ConnectionString`: a `postgresql://` URI or
/// `keyword=value` pairs), then the `PG*` environment variables for what it leaves out,
/// then libpq's defaults.
///
/// | setting | string | environment | default |
/// | --- | --- | --- | --- |
/// | hosts | `host` (a name, an IP address, or a Unix-socket directory starting with `/`; comma-separated to try several in turn) | `PGHOST` | the Unix socket in ``defaultSocketDirectory`` |
/// | ports | `port` (one, or one per host) | `PGPORT` | 5432 |
/// | user | `user` | `PGUSER` | the operating-system user |
/// | database | `dbname` | `PGDATABASE` | the user name |
/// | password | never (refused) | `PGPASSWORD` | the password file, `passfile` / `PGPASSFILE` / `~/.pgpass` |
/// | TLS | `sslmode` (see ``SSLMode``) | `PGSSLMODE` | `prefer` |
/// | connect timeout | `connect_timeout` seconds (0: wait indefinitely; below 2 counts as 2) | `PGCONNECT_TIMEOUT` | 10 seconds, so a scheduled job never hangs (libpq waits indefinitely) |
/// | application name | `application_name` | `PGAPPNAME` | `fallback_application_name`, else `ingest` |
///
/// ```swift
/// let settings = try PostgresConnectionSettings("postgresql:///feeds?host=/run/postgresql")
/// settings.endpoints   // [/run/postgresql port 5432]
/// ```
public struct PostgresConnectionSettings: Sendable, Equatable, CustomStringConvertible {
    /// One server address to try.
    public struct Endpoint: Sendable, Equatable, CustomStringConvertible {
        /// A host name or IP address, or a Unix-socket directory (starting with `/`).
        public var host: String
        /// The TCP port, or the number in a Unix socket's file name.
        public var port: Int

        /// The server at `host` (a name, an address or a socket directory) and `port`.
        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// Whether this is a Unix-domain socket rather than TCP.
        public var isUnixSocket: Bool { host.hasPrefix("/") }
        /// The socket file PostgreSQL listens on in ``host``: `DIR/.s.PGSQL.PORT`.
        public var socketPath: String { (host.hasSuffix("/") ? host : host + "/") + ".s.PGSQL.\(port)" }

        public var description: String {
            isUnixSocket ? "socket \(socketPath)" : (host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
        }
    }

    /// The servers to try, in order; the first that accepts the connection is used.
    public var endpoints: [Endpoint]
    /// The user to log in as.
    public var user: String
    /// The database to connect to.
    public var database: String
    /// Whether and how TCP connections use TLS.
    public var sslMode: SSLMode
    /// Seconds to wait for each connection attempt; `nil` waits indefinitely.
    public var connectTimeout: Int?
    /// Shown in `pg_stat_activity`, so an administrator sees which job a session is.
    public var applicationName: String
    /// The password file consulted when `PGPASSWORD` is not set.
    public var passwordFilePath: String?
    /// `PGPASSWORD`, kept out of ``description``.
    private var environmentPassword: String?

    /// Where libpq built for this system looks for the server's socket by default:
    /// Debian's and Ubuntu's `/var/run/postgresql`, upstream's `/tmp` elsewhere.
    public static var defaultSocketDirectory: String {
        #if os(Linux)
        "/var/run/postgresql"
        #else
        "/tmp"
        #endif
    }

    /// Resolves `connectionString` (empty: everything from the environment) against
    /// `environment`.
    ///
    /// - Parameters:
    ///   - connectionString: a `postgresql://` URI or `keyword=value` pairs; empty:
    ///     everything from the environment.
    ///   - environment: the variables to read `PG*` from; the process's by default.
    ///   - systemUser: the default user name; the operating-system user by default.
    ///   - homeDirectory: where `.pgpass` is; `HOME` (or the user database) by default.
    /// - Throws: ``/IngestCore/IngestError`` `.usage` for a malformed string, an unknown option, a
    ///   password in the string, or a port or timeout that is not a number.
    public init(
        _ connectionString: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        systemUser: String? = nil, homeDirectory: String? = nil
    ) throws {
        let given = try ConnectionString(connectionString).options
        func value(_ keyword: String, _ variable: String?) -> (String, String)? {
            if let value = given[keyword], !value.isEmpty { return (value, "the connection string") }
            if let variable, let value = environment[variable], !value.isEmpty { return (value, variable) }
            return nil
        }

        user = value("user", "PGUSER")?.0 ?? systemUser ?? ProcessEnvironment.userName ?? "postgres"
        database = value("dbname", "PGDATABASE")?.0 ?? user

        let hosts =
            value("host", "PGHOST").map {
                $0.0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            } ?? [""]
        var ports: [Int] = [5432]
        if let (text, source) = value("port", "PGPORT") {
            ports = try text.split(separator: ",", omittingEmptySubsequences: false).map { item in
                if item.isEmpty { return 5432 }
                guard let port = Int(item), (1...65535).contains(port) else {
                    throw usage("\(source) gives the port \"\(item)\"; a port is a number from 1 to 65535")
                }
                return port
            }
        }
        guard ports.count == 1 || ports.count == hosts.count else {
            throw usage("\(ports.count) ports were given for \(hosts.count) hosts; give one port, or one per host")
        }
        endpoints = hosts.enumerated().map { index, host in
            Endpoint(
                host: host.isEmpty ? Self.defaultSocketDirectory : host,
                port: ports.count == 1 ? ports[0] : ports[index])
        }

        if let (text, source) = value("sslmode", "PGSSLMODE") {
            sslMode = try SSLMode(parsing: text, from: source)
        } else {
            sslMode = .prefer
        }

        if let (text, source) = value("connect_timeout", "PGCONNECT_TIMEOUT") {
            guard let seconds = Int(text.trimmingSpaces) else {
                throw usage(
                    "\(source) gives connect_timeout \"\(text)\"; it is a whole number of seconds (0 waits indefinitely)"
                )
            }
            connectTimeout = seconds <= 0 ? nil : max(seconds, 2)
        } else {
            connectTimeout = 10
        }

        applicationName = value("application_name", "PGAPPNAME")?.0 ?? given["fallback_application_name"] ?? "ingest"
        environmentPassword = environment["PGPASSWORD"]
        if let (path, _) = value("passfile", "PGPASSFILE") {
            passwordFilePath = path
        } else if let home = homeDirectory ?? environment["HOME"] ?? ProcessEnvironment.homeDirectory {
            passwordFilePath = (home.hasSuffix("/") ? home : home + "/") + ".pgpass"
        }
    }

    /// The password for `endpoint`: `PGPASSWORD` if set and not empty (libpq takes an
    /// empty one as unset), else the first matching line of the password file, else
    /// none (trust, peer or certificate authentication).
    /// `warnings` receives why a password file was ignored.
    public func password(for endpoint: Endpoint, warnings: inout [String]) -> String? {
        if let environmentPassword, !environmentPassword.isEmpty { return environmentPassword }
        guard let passwordFilePath else { return nil }
        switch PasswordFile.load(path: passwordFilePath) {
        case .missing:
            return nil
        case .ignored(let reason):
            warnings.append(reason)
            return nil
        case .file(let file):
            return file.password(
                host: passwordFileHost(for: endpoint), port: String(endpoint.port), database: database, user: user)
        }
    }

    /// The host as the password file names it: `localhost` for the default socket directory.
    func passwordFileHost(for endpoint: Endpoint) -> String {
        endpoint.host == Self.defaultSocketDirectory ? "localhost" : endpoint.host
    }

    /// The settings as a URI without a password, for messages: `postgresql://me@db:5432/feeds`.
    public var description: String {
        let user = Self.encoded(user)
        let database = Self.encoded(database)
        let tcp = endpoints.filter { !$0.isUnixSocket }
        if tcp.count == endpoints.count {
            let hosts = tcp.map {
                $0.host.contains(":") ? "[\($0.host)]:\($0.port)" : "\(Self.encoded($0.host)):\($0.port)"
            }
            return "postgresql://\(user)@\(hosts.joined(separator: ","))/\(database)"
        }
        let hosts = endpoints.map { Self.encoded($0.host) }.joined(separator: ",")
        let ports =
            Set(endpoints.map(\.port)) == [5432]
            ? "" : "&port=" + endpoints.map { String($0.port) }.joined(separator: ",")
        return "postgresql://\(user)@/\(database)?host=\(hosts)\(ports)"
    }

    /// Percent-encodes what would end a URI part (`/ ? # @ : % & , = [ ]`, spaces, controls).
    static func encoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

/// The process's user, as the connection settings' defaults read it.
enum ProcessEnvironment {
    /// The name of the effective user, from the user database.
    static var userName: String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// The effective user's home directory, from the user database.
    static var homeDirectory: String? {
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}

private extension String {
    var trimmingSpaces: Substring {
        let start = drop { $0.isWhitespace }
        return start.dropLast(start.reversed().prefix { $0.isWhitespace }.count)
    }

    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

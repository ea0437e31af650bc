#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IngestCore
import IngestPOSIX
import PostgresNIO  // and NIO, which it re-exports

/// Turns what PostgresNIO and the network throw into ``IngestError``s that say what
/// happened in the user's terms, with the exit status a scheduler acts on:
///
/// | failure | kind (exit) |
/// | --- | --- |
/// | connection refused, no socket, timeout, connection lost, server shut down or restarting, too many connections, login refused (bad or missing password), deadlock or serialization failure, a lock another import held past `lock_timeout` | `.temporary` (75): run again later |
/// | a value the column cannot take, a duplicate key, a missing parent row | `.data` (65), at the record's position when known |
/// | a table that exists in create mode, no permission, an unknown database, TLS the server does not offer | `.output` (73) |
/// | anything else the server reports | `.io` (74) |
///
/// PostgresNIO keeps server messages out of its errors' descriptions (they may hold
/// data); the output shows them to its own user, who owns the data.
enum PostgresFailure {
    /// The connection closed under an operation: the server shut down, restarted or
    /// ended the session (`pg_terminate_backend`), or the network dropped.
    struct ConnectionClosed: Error {}

    /// `error` as an ``IngestError``; `doing` says what was being done
    /// ("cannot insert into people"), `target` where (the connection settings),
    /// `lockTimeout` how long a lock was waited for (the session's `lock_timeout`).
    static func ingestError(_ error: any Error, doing: String, target: String, lockTimeout: Double? = nil)
        -> IngestError
    {
        if let error = error as? IngestError { return error }
        if let error = error as? PSQLError {
            return ingestError(error, doing: doing, target: target, lockTimeout: lockTimeout)
        }
        if error is ConnectionClosed || isLostConnection(error) {
            return IngestError(
                .temporary,
                "\(doing): lost the connection to PostgreSQL at \(target) (the server shut down, restarted or ended the session); nothing was committed",
                reason: .serverUnavailable(.connectionLost))
        }
        if isConnectionFailure(error) {
            return IngestError(
                .temporary, "\(doing): cannot reach PostgreSQL at \(target): \(describe(error))",
                reason: .serverUnavailable(.unreachable))
        }
        return IngestError(.io, "\(doing): \(describe(error))")
    }

    private static func ingestError(_ error: PSQLError, doing: String, target: String, lockTimeout: Double?)
        -> IngestError
    {
        if error.code == .server, let info = error.serverInfo {
            let state = info[.sqlState] ?? ""
            if state == "55P03" {
                // lock_timeout: another import holds the table (or its advisory lock) still.
                let waited = lockTimeout ?? 0
                return IngestError(
                    .temporary,
                    "\(doing): another import is writing the same tables at \(target); waited \(OutputLock.seconds(waited)) s for it",
                    reason: .outputBusy(waitedSeconds: waited))
            }
            var message = info[.message] ?? "the server reported an error"
            if let detail = info[.detail] { message += " (\(detail))" }
            if let hint = info[.hint] { message += "; \(hint)" }
            let kind = kind(ofSQLState: state)
            if kind == .temporary {
                return IngestError(
                    .temporary, "\(doing): PostgreSQL at \(target): \(message)",
                    reason: .serverUnavailable(failure(ofSQLState: state)))
            }
            return IngestError(kind, "\(doing): \(message)")
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            let cause = error.underlying.map { ": " + describe($0) } ?? ""
            let unreachable = error.code == .connectionError && !(error.underlying.map(isLostConnection) ?? false)
            return IngestError(
                .temporary,
                "\(doing): \(unreachable ? "cannot reach" : "lost the connection to") PostgreSQL at \(target)\(cause)",
                reason: .serverUnavailable(unreachable ? .unreachable : .connectionLost))
        case .authMechanismRequiresPassword:
            return IngestError(
                .temporary,
                "\(doing): PostgreSQL at \(target) asks for a password, and neither PGPASSWORD nor a password file gives one",
                reason: .serverUnavailable(.passwordMissing))
        case .sslUnsupported:
            return IngestError(
                .output,
                "\(doing): PostgreSQL at \(target) does not offer TLS, which sslmode requires; use sslmode=prefer or enable ssl on the server"
            )
        case .unsupportedAuthMechanism:
            return IngestError(
                .output,
                "\(doing): PostgreSQL at \(target) asks for an authentication method the client does not support (it supports password, md5 and SCRAM-SHA-256)"
            )
        default:
            return IngestError(.io, "\(doing): \(String(reflecting: error))")
        }
    }

    /// The class of a server error code (SQLSTATE).
    static func kind(ofSQLState state: String) -> IngestError.Kind {
        switch state {
        case _ where state.hasPrefix("08"): .temporary  // connection exception
        case "57P01", "57P02", "57P03": .temporary  // shut down, crashed, starting up
        case "53300": .temporary  // too many connections
        case "28000", "28P01": .temporary  // login refused
        case "40001", "40P01": .temporary  // serialization failure, deadlock
        case "55P03": .temporary  // lock_timeout
        case "3D000", "3F000": .output  // no such database, schema
        case "42501", "42P07", "2BP01": .output  // no permission, table exists, other objects depend
        case _ where state.hasPrefix("22") || state.hasPrefix("23"): .data  // bad value, constraint
        default: .io
        }
    }

    /// Why a server error of ``kind(ofSQLState:)`` `.temporary` is one.
    static func failure(ofSQLState state: String) -> IngestError.ServerFailure {
        switch state {
        case "28000", "28P01": .loginRefused
        case "40001", "40P01": .conflict
        case "57P03", "53300": .busy
        default: .connectionLost  // 08…, 57P01, 57P02
        }
    }

    /// Whether `error` is the network's, not the server's: refused, unreachable, timed out.
    static func isConnectionFailure(_ error: any Error) -> Bool {
        error is NIOConnectionError || error is IOError || error is ChannelError || error is SocketAddressError
    }

    /// Whether `error` ends a connection that was open: reset or closed by the server,
    /// a broken pipe. Only an open connection can be reset, so the server was reached.
    static func isLostConnection(_ error: any Error) -> Bool {
        if let error = error as? IOError { return [ECONNRESET, EPIPE, ECONNABORTED].contains(error.errnoCode) }
        if let error = error as? ChannelError {
            switch error {
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed: return true
            default: return false
            }
        }
        return false
    }

    /// A short description of a network error: `connection refused`, `no such file or directory`.
    static func describe(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            let causes =
                (error.connectionErrors.map { describe($0.error) }
                    + [error.dnsAError, error.dnsAAAAError].compactMap { $0.map(describe) })
            return Array(Set(causes)).sorted().joined(separator: "; ")
        }
        if let error = error as? IOError {
            return String(cString: strerror(error.errnoCode)).lowercased()
        }
        if let error = error as? ChannelError, case .connectTimeout(let amount) = error {
            return "no answer within \(amount.nanoseconds / 1_000_000_000) seconds"
        }
        return String(describing: error)
    }
}

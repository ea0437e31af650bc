import Foundation
import IngestCore
import Logging
import PostgresNIO

/// One PostgreSQL connection driven from a plain thread: the bridge between the
/// import's synchronous `write(_:)` calls and PostgresNIO's async API.
///
/// Every operation goes, in order, through one queue to one task that owns the
/// connection and runs on a thread of its own (``ThreadTaskExecutor``), so nothing here
/// waits on Swift's shared thread pool, the event loop, or another operation.
///
/// - ``run(_:)`` waits for its operation and returns its result (a query, a DDL
///   statement, the commit).
/// - ``submit(_:)`` queues an operation and returns at once, so the next batch of rows
///   is encoded while the server copies this one. At most ``pipelineDepth`` operations
///   wait in the queue; `submit` blocks while it is full, which bounds memory. An
///   operation's failure is thrown by the next `submit`, `run` or ``waitForQueue()``.
package final class PostgresSession: @unchecked Sendable {
    /// Queued operations at most (beyond the one running).
    package let pipelineDepth: Int
    /// Where the connection goes, for messages (no password).
    package let target: String
    /// The seconds the session waits for a lock (the server's `lock_timeout`, set by
    /// its user), for messages when the wait runs out.
    package let lockTimeout: Double?

    private let executor = ThreadTaskExecutor(name: "ingest-postgres")
    private let jobs: AsyncStream<Job>.Continuation
    private let slots: DispatchSemaphore
    private let state = NSLock()
    /// Guarded by `state`.
    private var connection: PostgresConnection?
    private var failure: IngestError?
    private var closed = false

    private typealias Job = @Sendable () async -> Void

    package static let logger = Logger(label: "ingest.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    package init(target: String, pipelineDepth: Int = 2, lockTimeout: Double? = nil) {
        self.target = target
        self.lockTimeout = lockTimeout
        self.pipelineDepth = pipelineDepth
        slots = DispatchSemaphore(value: max(pipelineDepth, 1))
        let (stream, continuation) = AsyncStream.makeStream(of: Job.self)
        jobs = continuation
        Task(executorPreference: executor) {
            for await job in stream { await job() }
        }
    }

    deinit {
        Self.closeKeepingAlive(connection)
        jobs.finish()
        executor.shutdown()
    }

    /// Closes `connection` without waiting, holding it until it is closed (PostgresNIO
    /// requires a connection to be closed before it is released).
    private static func closeKeepingAlive(_ connection: PostgresConnection?) {
        guard let connection else { return }
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Connects to the first of `settings.endpoints` that answers. `warnings`
    /// receives what the caller should show (an ignored password file).
    package func connect(_ settings: PostgresConnectionSettings, warnings: inout [String]) throws {
        var attempts: [(PostgresConnection.Configuration, PostgresConnectionSettings.Endpoint)] = []
        for endpoint in settings.endpoints {
            attempts.append((try Self.configuration(settings, endpoint: endpoint, warnings: &warnings), endpoint))
        }
        let candidates = attempts
        let connection = try perform { () async throws -> PostgresConnection in
            var failures: [IngestError] = []
            for (configuration, endpoint) in candidates {
                do {
                    return try await PostgresConnection.connect(
                        configuration: configuration, id: 1, logger: Self.logger)
                } catch {
                    failures.append(
                        PostgresFailure.ingestError(error, doing: "cannot connect", target: endpoint.description))
                }
            }
            // The last failure says why; a temporary failure anywhere makes the whole temporary.
            var last = failures.last!
            if failures.count > 1 {
                last.message += " (and \(failures.count - 1) other host\(failures.count == 2 ? "" : "s") failed)"
                if failures.contains(where: { $0.kind == .temporary }) { last.kind = .temporary }
            }
            throw last
        }
        state.withLock { self.connection = connection }
    }

    /// The PostgresNIO configuration for one endpoint: Unix socket or TCP with the TLS
    /// that `sslMode` asks for, the password from `PGPASSWORD` or the password file.
    static func configuration(
        _ settings: PostgresConnectionSettings, endpoint: PostgresConnectionSettings.Endpoint,
        warnings: inout [String]
    ) throws -> PostgresConnection.Configuration {
        let password = settings.password(for: endpoint, warnings: &warnings)
        var configuration: PostgresConnection.Configuration
        if endpoint.isUnixSocket {
            configuration = .init(
                unixSocketPath: endpoint.socketPath, username: settings.user, password: password,
                database: settings.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            if settings.sslMode == .disable {
                tls = .disable
            } else {
                var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
                switch settings.sslMode {
                case .verifyFull: tlsConfiguration.certificateVerification = .fullVerification
                case .verifyCA: tlsConfiguration.certificateVerification = .noHostnameVerification
                default: tlsConfiguration.certificateVerification = .none
                }
                let context: NIOSSLContext
                do {
                    context = try NIOSSLContext(configuration: tlsConfiguration)
                } catch {
                    throw IngestError(.output, "cannot set up TLS for \(endpoint): \(error)")
                }
                tls = settings.sslMode.requiresEncryption ? .require(context) : .prefer(context)
            }
            configuration = .init(
                host: endpoint.host, port: endpoint.port, username: settings.user, password: password,
                database: settings.database, tls: tls)
        }
        // No timeout is a day: PostgresNIO needs one, and no connection takes that long.
        configuration.options.connectTimeout = .seconds(Int64(settings.connectTimeout ?? 86_400))
        // Text goes as UTF-8 whatever the database's encoding; the server converts it.
        configuration.options.additionalStartupParameters = [
            ("application_name", settings.applicationName), ("client_encoding", "UTF8")
        ]
        return configuration
    }

    /// Runs `body` on the connection after everything queued before it, and waits for
    /// its result. Errors come out as ``IngestError``s (see ``PostgresFailure``),
    /// `doing` saying what was being done.
    ///
    /// `body` reads the rows of its queries to the end, even when it wants only the
    /// first: leaving a row sequence early makes PostgresNIO cancel the query from its
    /// event loop while the next operation starts, the path an import was once seen
    /// stalled on (its session idle in the transaction, the next query never sent).
    package func run<T: Sendable>(doing: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        throws -> T
    {
        let target = self.target, lockTimeout = self.lockTimeout
        return try perform {
            guard let connection = self.currentConnection else {
                throw IngestError(.io, "\(doing): the connection to PostgreSQL is closed")
            }
            do {
                return try await self.untilClosed(connection, body)
            } catch {
                throw PostgresFailure.ingestError(error, doing: doing, target: target, lockTimeout: lockTimeout)
            }
        }
    }

    /// Runs one SQL statement (no parameters, no result rows) and waits for it.
    package func execute(_ sql: String, doing: String) throws {
        try run(doing: doing) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger)
            return ()
        }
    }

    /// Runs one statement and waits for all its rows, every column read as text (cast
    /// in `sql` what is not text): for the command's own small queries.
    package func texts(_ sql: String, doing: String) throws -> [[String?]] {
        try run(doing: doing) { connection in
            var rows: [[String?]] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger) {
                rows.append(try row.map { try $0.decode(String?.self) })
            }
            return rows
        }
    }

    /// Queues `body`, to run on the connection after everything queued before it, and
    /// returns once there is room in the queue. `body` should throw ``IngestError``s;
    /// the first failure is kept and thrown by the next call.
    func submit(_ body: @escaping @Sendable (PostgresConnection) async throws -> Void) throws {
        try throwFailure()
        slots.wait()
        let target = self.target, lockTimeout = self.lockTimeout
        jobs.yield {
            defer { self.slots.signal() }
            guard self.state.withLock({ self.failure == nil }), let connection = self.currentConnection else { return }
            do {
                try await self.untilClosed(connection, body)
            } catch {
                self.record(
                    PostgresFailure.ingestError(
                        error, doing: "cannot write to PostgreSQL", target: target, lockTimeout: lockTimeout))
            }
        }
        if pipelineDepth == 0 { try waitForQueue() }
    }

    /// Waits until everything queued has run, and throws the first failure.
    func waitForQueue() throws {
        try perform { () }
    }

    /// Closes the connection after what is queued; a transaction still open rolls back.
    package func close() {
        guard
            let connection = state.withLock({ () -> PostgresConnection? in
                defer {
                    closed = true
                    self.connection = nil
                }
                return closed ? nil : self.connection
            })
        else { return }
        jobs.yield { try? await connection.close() }
        jobs.finish()
    }

    /// Closes the connection now, from any thread, without waiting for queued work:
    /// the server rolls back the open transaction, as it does for a killed client.
    func abort() {
        let connection = state.withLock { () -> PostgresConnection? in
            defer {
                closed = true
                self.connection = nil
                if failure == nil { failure = IngestError(.io, "the import was discarded") }
            }
            return self.connection
        }
        Self.closeKeepingAlive(connection)
        jobs.finish()
    }

    /// The server process serving this session (`pg_backend_pid()`), for messages and tests.
    func backendProcessID() throws -> Int32 {
        try run(doing: "cannot ask PostgreSQL for its process id") { connection in
            var backend: Int32 = 0
            for try await pid in try await connection.query("SELECT pg_backend_pid()", logger: Self.logger).decode(
                Int32.self)
            {
                backend = pid
            }
            return backend
        }
    }

    // MARK: plumbing

    /// Runs `body` on `connection`, or fails as soon as the connection closes.
    ///
    /// PostgresNIO 1.33.2 drops an operation started on a connection the server has
    /// just closed (its `COPY` continuation is never resumed), which would hang the
    /// import when the server restarts or ends the session. `body` runs as a task of its
    /// own, raced against the connection's close; if the close wins, the failure is
    /// reported at once. The stranded task stays suspended (with what it holds, a batch
    /// at most) until the process ends: a cost paid only by an import that failed.
    private func untilClosed<T: Sendable>(
        _ connection: PostgresConnection,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        if connection.isClosed { throw PostgresFailure.ConnectionClosed() }
        let race = Race<T>()
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            Task(executorPreference: executor) {
                do {
                    race.finish(.success(try await body(connection)))
                } catch {
                    race.finish(.failure(error))
                }
            }
            connection.closeFuture.whenComplete { _ in
                race.finish(.failure(PostgresFailure.ConnectionClosed()))
            }
        }
    }

    private var currentConnection: PostgresConnection? { state.withLock { connection } }

    private func record(_ error: IngestError) {
        state.withLock { if failure == nil { failure = error } }
    }

    private func throwFailure() throws {
        if let failure = state.withLock({ failure }) { throw failure }
    }

    /// Runs `body` after the queue and waits for it; the first queued failure wins.
    private func perform<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        try throwFailure()
        let outcome = Outcome<T>()
        let accepted = jobs.yield {
            if let failure = self.state.withLock({ self.failure }) {
                outcome.finish(.failure(failure))
                return
            }
            do {
                outcome.finish(.success(try await body()))
            } catch {
                let failure = error as? IngestError ?? IngestError(.io, "\(error)")
                outcome.finish(.failure(failure))
            }
        }
        if case .terminated = accepted {
            throw state.withLock { failure } ?? IngestError(.io, "the connection to PostgreSQL is closed")
        }
        return try outcome.wait().get()
    }
}

/// A result handed from the session's task to the waiting thread.
private final class Outcome<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, IngestError>?

    func finish(_ result: Result<T, IngestError>) {
        self.result = result
        done.signal()
    }

    func wait() -> Result<T, IngestError> {
        done.wait()
        return result!
    }
}

/// The first of several outcomes resumes a continuation; the others are dropped.
private final class Race<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var early: Result<T, any Error>?

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let result = lock.withLock { () -> Result<T, any Error>? in
            if let early { return early }
            self.continuation = continuation
            return nil
        }
        if let result { continuation.resume(with: result) }
    }

    func finish(_ result: Result<T, any Error>) {
        let continuation = lock.withLock { () -> CheckedContinuation<T, any Error>? in
            defer { self.continuation = nil }
            if self.continuation == nil, early == nil { early = result }
            return self.continuation
        }
        continuation?.resume(with: result)
    }
}

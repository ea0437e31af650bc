import Foundation
import IngestPostgres
import Logging
import PostgresNIO
import PostgresTestServer

/// A second session on the test server, in the test's own async code: a reader that
/// watches tables while an import runs, or an administrator that ends sessions.
final class TestClient: Sendable {
    let connection: PostgresConnection
    static let logger = Logger(label: "ingest.postgres.tests", factory: { _ in SwiftLogNoOpLogHandler() })

    private init(connection: PostgresConnection) {
        self.connection = connection
    }

    deinit {
        // PostgresNIO requires a connection closed before it is released, also when a
        // test fails before its own close().
        let connection = self.connection
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    static func connect(_ server: TestPostgresServer, database: String) async throws -> TestClient {
        let configuration = PostgresConnection.Configuration(
            unixSocketPath: server.socketDirectory + "/.s.PGSQL.5432", username: TestPostgresServer.superuser,
            password: nil, database: database)
        return TestClient(
            connection: try await PostgresConnection.connect(configuration: configuration, id: 99, logger: logger))
    }

    /// The one integer `sql` returns.
    func integer(_ sql: String) async throws -> Int {
        for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).decode(
            Int.self)
        {
            return value
        }
        throw TestServerError("\(sql) returned no row")
    }

    func execute(_ sql: String) async throws {
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger)
    }

    func close() async {
        try? await connection.close()
    }
}

/// A flag one thread raises and another waits for.
final class Signal: @unchecked Sendable {
    private let condition = NSCondition()
    private var raised = false

    func raise() {
        condition.lock()
        raised = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until raised, or `timeout` seconds; returns whether it was raised. Only for
    /// plain threads: in async code, ``raised(timeout:)``.
    @discardableResult
    func wait(timeout: TimeInterval = 180) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !raised {
            if !condition.wait(until: deadline) { return raised }
        }
        return true
    }

    /// Waits until raised, or `timeout` seconds, without holding a thread of the pool
    /// (which the import's task may be waiting for). Generous: on a 2-core machine
    /// running two test suites and their builds at once, 60 s was once not enough for
    /// a fresh server's first COPY.
    func raised(timeout: TimeInterval = 180) async throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !isRaised {
            guard Date() < deadline else { throw TestServerError("no signal within \(timeout) seconds") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    var isRaised: Bool {
        condition.lock()
        defer { condition.unlock() }
        return raised
    }
}

import IngestCore
@testable import IngestPostgres
import PostgresNIO
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the network throws, in the user's words: a server never reached is
/// "cannot reach"; a connection reset or closed under an import (a restart) is
/// "lost the connection". Both are `.temporary` (exit 75).
@Suite("PostgresFailure: unreachable or lost")
struct PostgresFailureTests {
    static func message(_ error: any Error) -> IngestError {
        PostgresFailure.ingestError(error, doing: "cannot insert into people", target: "db")
    }

    @Test(
        "a reset, a broken pipe or a closed channel is a lost connection",
        arguments: [
            IOError(errnoCode: ECONNRESET, reason: "read") as any Error, IOError(errnoCode: EPIPE, reason: "write"),
            ChannelError.ioOnClosedChannel, ChannelError.eof
        ])
    func lost(_ error: any Error) {
        let ingest = Self.message(error)
        #expect(ingest.kind == .temporary)
        #expect(ingest.reason == .serverUnavailable(.connectionLost), "\(ingest)")
        #expect(ingest.message.contains("lost the connection to PostgreSQL at db"), "\(ingest)")
    }

    @Test("a refused connection or a missing socket is a server not reached")
    func unreachable() {
        for errno in [ECONNREFUSED, ENOENT] {
            let ingest = Self.message(IOError(errnoCode: errno, reason: "connect"))
            #expect(ingest.kind == .temporary)
            #expect(ingest.reason == .serverUnavailable(.unreachable), "\(ingest)")
            #expect(ingest.message.contains("cannot reach PostgreSQL at db"), "\(ingest)")
        }
    }
}

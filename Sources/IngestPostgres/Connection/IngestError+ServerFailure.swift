import IngestCore

/// The failure IngestPostgres names: a server that cannot be used now, which a later
/// run may find working (kind ``/IngestCore/IngestError/Kind/temporary``).
extension IngestError.Code {
    /// The database server cannot be used now; ``IngestError/Reason/serverFailure``
    /// says why.
    public static let serverUnavailable = Self("serverUnavailable")
}

extension IngestError.Reason {
    /// The server cannot be used, for `failure` (``IngestError/Code/serverUnavailable``).
    public static func serverUnavailable(_ failure: IngestError.ServerFailure) -> Self {
        Self(.serverUnavailable, failure)
    }

    /// For ``IngestError/Code/serverUnavailable``: why the server cannot be used.
    public var serverFailure: IngestError.ServerFailure? { value(as: IngestError.ServerFailure.self) }
}

extension IngestError {
    /// Why a database server could not be used, as ``IngestError/Code/serverUnavailable``
    /// says.
    public enum ServerFailure: Sendable, Hashable {
        /// Nothing answered: connection refused, no socket, no answer in time.
        case unreachable
        /// The connection closed under the import: the server shut down or restarted,
        /// or ended the session.
        case connectionLost
        /// The server is there but will not serve yet: starting up, shutting down, or
        /// out of connections.
        case busy
        /// The login was refused: a wrong user or password.
        case loginRefused
        /// The server asks for a password and none was given.
        case passwordMissing
        /// The import collided with another on the same rows (a deadlock or a
        /// serialization failure) and was rolled back.
        case conflict
    }
}

/// libpq's `sslmode`: whether a TCP connection is encrypted, and how much of the
/// server's certificate is checked. Unix-socket connections never use TLS (libpq
/// ignores `sslmode` for them: the socket is local and protected by file permissions).
///
/// | mode | encrypted | certificate checked | if the server has no TLS |
/// | --- | --- | --- | --- |
/// | `disable` | no | — | plain connection |
/// | `allow` | if the server insists | no | plain connection (taken as `prefer`: the client cannot retry in the other order) |
/// | `prefer` (default) | if the server offers it | no | plain connection |
/// | `require` | yes | no (as libpq without a root certificate file) | refused |
/// | `verify-ca` | yes | signed by a trusted authority | refused |
/// | `verify-full` | yes | trusted, and issued for the host name | refused |
///
/// Trusted authorities are the system's; `require` protects against eavesdropping but
/// not against a server impersonating the real one — use `verify-full` for that.
public enum SSLMode: String, Sendable, CaseIterable {
    /// Never encrypt.
    case disable
    /// Encrypt only if the server insists (taken as ``prefer``).
    case allow
    /// Encrypt if the server offers it; the default.
    case prefer
    /// Always encrypt; check no certificate.
    case require
    /// Always encrypt; the certificate must be signed by a trusted authority.
    case verifyCA = "verify-ca"
    /// Always encrypt; the certificate must be trusted and issued for the host name.
    case verifyFull = "verify-full"

    /// Whether the connection fails when the server offers no TLS.
    public var requiresEncryption: Bool {
        switch self {
        case .disable, .allow, .prefer: false
        case .require, .verifyCA, .verifyFull: true
        }
    }

    init(parsing value: String, from source: String) throws {
        guard let mode = SSLMode(rawValue: value) else {
            throw usage(
                "\(source) sets sslmode to \"\(value)\"; it takes \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        self = mode
    }
}

import Foundation

/// The rule a URL must pass before an HTTP client is given it: the scheme `http` or
/// `https`, a host, and, when it names a port, a port from 1 to 65535.
///
/// A fetcher checks every address it is about to ask, the first and each redirect's
/// `Location`, so that a bad one fails that one fetch with a message. Given to the
/// client as it is, a port past 65535 traps in SwiftNIO for an IP address, ending
/// the whole run, and wraps around for a host name (99999 asks port 34463).
///
/// ```swift
/// try FetchableURL.check(URL(string: "http://127.0.0.1:99999/")!)
/// // throws: invalid URL http://127.0.0.1:99999/: port 99999 is out of range 1-65535
/// ```
public enum FetchableURL {
    /// What is wrong with a URL: `invalid URL <url>: <problem>`.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// The URL as it was given.
        public let url: String
        /// What is wrong with it, in words: `port 99999 is out of range 1-65535`.
        public let problem: String

        public var description: String { "invalid URL \(url): \(problem)" }
    }

    /// The ports a URL may name.
    public static let ports = 1...65535

    /// Throws ``Invalid`` when `url` is not one to fetch.
    ///
    /// The port is read from the URL's text as well as from Foundation's `port`,
    /// so that a port Foundation cannot make a number of is refused, never taken as
    /// the scheme's default.
    public static func check(_ url: URL) throws(Invalid) {
        let text = url.absoluteString
        func invalid(_ problem: String) -> Invalid { Invalid(url: text, problem: problem) }
        func outOfRange(_ port: some CustomStringConvertible) -> Invalid {
            invalid("port \(port) is out of range \(ports.lowerBound)-\(ports.upperBound)")
        }
        guard let scheme = url.scheme?.lowercased() else { throw invalid("it has no scheme (expected http or https)") }
        guard scheme == "http" || scheme == "https" else { throw invalid("the scheme \(scheme) is not http or https") }
        let reference = URIReference(text)
        guard let host = url.host, !host.isEmpty, host != "[]", let authority = reference.authority else {
            throw invalid("it has no host")
        }
        if let port = portText(of: authority), !port.isEmpty {
            guard port.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw invalid("port \(port) is not a number") }
            guard let number = Int(port), ports.contains(number) else { throw outOfRange(port) }
        }
        if let port = url.port, !ports.contains(port) { throw outOfRange(port) }
    }

    /// The text after the host's colon in `user@host:port`, `[v6]:port`; `nil` when
    /// there is no colon. Empty when nothing follows the colon (the default port).
    private static func portText(of authority: Substring) -> Substring? {
        let hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        let afterHost =
            hostAndPort.hasPrefix("[")
            ? hostAndPort.firstIndex(of: "]").map { hostAndPort[hostAndPort.index(after: $0)...] } ?? ""
            : hostAndPort
        guard let colon = afterHost.lastIndex(of: ":") else { return nil }
        return afterHost[afterHost.index(after: colon)...]
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1, on an ephemeral port, for the tests: each
/// path answers as its handler says, one connection at a time, each closed after
/// its response. Plain sockets: the test needs no server library.
public final class TinyHTTPServer: @unchecked Sendable {
    /// What a path answers.
    public struct Response {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]

        /// A response: 200, no headers, no body unless given.
        public init(status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// A request's path and headers (names in lower case).
    public struct Request: Sendable {
        public var path: String
        public var headers: [String: String]
    }

    private let lock = NSLock()
    private var handlers: [String: @Sendable (Request) -> Response] = [:]
    private var received: [Request] = []
    private let listener: Int32
    /// The port it listens on.
    public let port: UInt16

    public init() throws {
        #if canImport(Glibc)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Sets how `path` answers.
    public func route(_ path: String, _ handler: @escaping @Sendable (Request) -> Response) {
        lock.lock()
        handlers[path] = handler
        lock.unlock()
    }

    /// Every request so far.
    public var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Stops listening.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            answer(connection)
            close(connection)
        }
    }

    private func answer(_ connection: Int32) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while String(decoding: bytes, as: UTF8.self).range(of: "\r\n\r\n") == nil {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            bytes += buffer[..<count]
        }
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let path = lines[0].split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let request = Request(path: path, headers: headers)
        lock.lock()
        received.append(request)
        let handler = handlers[path]
        lock.unlock()
        let response = handler?(request) ?? Response(status: 404)
        var head = "HTTP/1.1 \(response.status) \(response.status == 200 ? "OK" : "Status")\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let whole = Array(head.utf8) + response.body
        var sent = 0
        while sent < whole.count {
            let count = whole[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            sent += count
        }
    }
}

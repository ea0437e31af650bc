import IngestCore

/// The options of a libpq connection string, before defaults and environment
/// variables apply: what the user wrote, decoded.
///
/// Two forms are read, as libpq reads them:
///
/// - a URI, `postgresql://[user@][host][:port][,host[:port]…][/dbname][?param=value&…]`
///   (`postgres://` too): every part percent-decoded, an IPv6 address in brackets
///   (`[::1]:5432`), a Unix-socket directory as a host spelled `%2Frun%2Fpostgresql`
///   or given as `?host=/run/postgresql`; a query parameter overrides the same part
///   of the address;
/// - keyword/value pairs, `host=localhost port=5432 dbname='my db'`: single quotes
///   around a value with spaces, `\'` and `\\` inside.
///
/// A string that is neither (no `=`, no scheme) is a database name, as `psql mydb` takes it.
///
/// A password is refused wherever it is written (`user:secret@`, `password=`): a
/// command line is visible to every user of the machine through `ps`, and lands in shell
/// history and cron logs. The error says to use `PGPASSWORD` or `~/.pgpass` instead.
struct ConnectionString: Equatable {
    /// The options given, by libpq keyword (`host`, `port`, `user`, `dbname`, …).
    var options: [String: String] = [:]

    /// The keywords this loader understands; anything else is refused, as libpq
    /// refuses an unknown keyword rather than ignore what the user meant.
    static let keywords: Set<String> = [
        "host", "port", "user", "dbname", "sslmode", "connect_timeout",
        "application_name", "fallback_application_name", "passfile"
    ]

    init(_ string: String) throws {
        if string.hasPrefix("postgresql://") || string.hasPrefix("postgres://") {
            try parseURI(string)
        } else if string.contains("=") {
            try parseKeywordValues(string)
        } else if !string.isEmpty {
            options["dbname"] = string
        }
    }

    // MARK: URI

    private mutating func parseURI(_ uri: String) throws {
        var rest = Substring(uri.drop { $0 != ":" }.dropFirst(3))
        // Parts end at the first '/' or '?' (which a percent-encoded part cannot contain).
        let addressEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var address = rest[..<addressEnd]
        rest = rest[addressEnd...]

        if let at = address.firstIndex(of: "@") {
            let userInfo = address[..<at]
            address = address[address.index(after: at)...]
            if userInfo.contains(":") {
                throw Self.passwordRefused(in: "the URI")
            }
            if !userInfo.isEmpty { options["user"] = try Self.percentDecoded(userInfo, what: "user name") }
        }
        try parseHosts(address)

        if rest.first == "/" {
            rest = rest.dropFirst()
            let end = rest.firstIndex(of: "?") ?? rest.endIndex
            let database = rest[..<end]
            if !database.isEmpty { options["dbname"] = try Self.percentDecoded(database, what: "database name") }
            rest = rest[end...]
        }
        if rest.first == "?" {
            for pair in rest.dropFirst().split(separator: "&", omittingEmptySubsequences: true) {
                guard let equals = pair.firstIndex(of: "=") else {
                    throw usage("the URI parameter \"\(pair)\" has no value; write \(pair)=VALUE")
                }
                let key = try Self.percentDecoded(pair[..<equals], what: "parameter name")
                let value = try Self.percentDecoded(pair[pair.index(after: equals)...], what: "value of \(key)")
                // libpq's JDBC courtesy: ssl=true means sslmode=require.
                if key == "ssl" {
                    guard value == "true" else {
                        throw usage("the URI parameter ssl takes only the value true (or use sslmode)")
                    }
                    try store("sslmode", "require", in: "the URI")
                } else {
                    try store(key, value, in: "the URI")
                }
            }
        }
    }

    /// `host[:port]` items separated by commas; brackets around an IPv6 address.
    private mutating func parseHosts(_ address: Substring) throws {
        guard !address.isEmpty else { return }
        var hosts: [String] = []
        var ports: [String] = []
        for item in address.split(separator: ",", omittingEmptySubsequences: false) {
            var host = item[...]
            var port: Substring = ""
            if host.first == "[" {
                guard let close = host.firstIndex(of: "]") else {
                    throw usage("the IPv6 address in \"\(item)\" lacks its closing bracket")
                }
                let after = host[host.index(after: close)...]
                host = host[host.index(after: host.startIndex)..<close]
                if host.isEmpty { throw usage("the brackets in \"\(item)\" hold no IPv6 address") }
                if !after.isEmpty {
                    guard after.first == ":" else {
                        throw usage("unexpected \"\(after)\" after the IPv6 address in \"\(item)\"")
                    }
                    port = after.dropFirst()
                }
            } else if let colon = host.lastIndex(of: ":") {
                port = host[host.index(after: colon)...]
                host = host[..<colon]
            }
            hosts.append(try Self.percentDecoded(host, what: "host"))
            ports.append(try Self.percentDecoded(port, what: "port"))
        }
        if hosts.contains(where: { !$0.isEmpty }) { options["host"] = hosts.joined(separator: ",") }
        if ports.contains(where: { !$0.isEmpty }) { options["port"] = ports.joined(separator: ",") }
    }

    /// `%XX` sequences decoded to bytes, the whole read as UTF-8. `+` stays `+` (this
    /// is a URI, not a form). `%00` is refused, as libpq refuses it.
    static func percentDecoded(_ text: Substring, what: String) throws -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = hexValue(utf8.popFirst()!), let low = hexValue(utf8.popFirst()!) else {
                throw usage(
                    "the \(what) \"\(text)\" has an invalid percent-encoded sequence (% must be followed by two hex digits)"
                )
            }
            let decoded = high << 4 | low
            guard decoded != 0 else { throw usage("the \(what) \"\(text)\" contains %00, which cannot be passed on") }
            bytes.append(decoded)
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw usage("the \(what) \"\(text)\" does not decode to UTF-8 text")
        }
        return string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: keyword/value

    private mutating func parseKeywordValues(_ string: String) throws {
        var characters = Substring(string)
        func skipSpaces() { characters = characters.drop { $0.isWhitespace } }
        skipSpaces()
        while !characters.isEmpty {
            let keyword = characters.prefix { !$0.isWhitespace && $0 != "=" }
            characters = characters.dropFirst(keyword.count)
            skipSpaces()
            guard characters.first == "=" else {
                throw usage("missing \"=\" after \"\(keyword)\" in the connection string")
            }
            characters = characters.dropFirst()
            skipSpaces()
            var value = ""
            if characters.first == "'" {
                characters = characters.dropFirst()
                var closed = false
                while let character = characters.popFirst() {
                    if character == "\\", let escaped = characters.popFirst() {
                        value.append(escaped)
                        continue
                    }
                    if character == "'" {
                        closed = true
                        break
                    }
                    value.append(character)
                }
                guard closed else {
                    throw usage("unterminated quoted value for \"\(keyword)\" in the connection string")
                }
            } else {
                while let character = characters.first, !character.isWhitespace {
                    characters = characters.dropFirst()
                    if character == "\\", let escaped = characters.popFirst() {
                        value.append(escaped)
                        continue
                    }
                    value.append(character)
                }
            }
            try store(String(keyword), value, in: "the connection string")
            skipSpaces()
        }
    }

    // MARK: common

    private mutating func store(_ keyword: String, _ value: String, in place: String) throws {
        if keyword == "password" { throw Self.passwordRefused(in: place) }
        guard Self.keywords.contains(keyword) else {
            throw usage(
                "\(place) names \"\(keyword)\", which is not a connection option ingest knows; it knows \(Self.keywords.sorted().joined(separator: ", "))"
            )
        }
        options[keyword] = value
    }

    static func passwordRefused(in place: String) -> IngestError {
        usage(
            "a password in \(place) would show in `ps`, shell history and logs; remove it and set PGPASSWORD, or put it in ~/.pgpass (or the file PGPASSFILE names)"
        )
    }
}

func usage(_ message: String) -> IngestError { IngestError(.usage, message) }

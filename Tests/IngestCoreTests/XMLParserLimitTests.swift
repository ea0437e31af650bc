import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// Both XML parsers take the same arguments after their own options — `limits`,
/// `chunkSize`, `onWarning` — and bound one token by `limits` the same way, libxml2
/// even with its own limits lifted.
@Suite struct XMLParserLimitTests {
    static let limits = ParseLimits(maxTextBytes: 1_000)

    /// Expat, libxml2, and libxml2 with its own limits lifted, all bounded by `limits`.
    static func parsers(limits: ParseLimits) -> [(String, any StreamingParser)] {
        [
            ("expat", ExpatParser(limits: limits, chunkSize: 64)),
            ("libxml2", LibXML2Parser(limits: limits, chunkSize: 64)),
            ("libxml2 huge", LibXML2Parser(allowsHugeDocuments: true, limits: limits, chunkSize: 64))
        ]
    }

    static let longTokens: [(String, String)] = [
        ("comment", "<a><!--\(String(repeating: "c", count: 5_000))--></a>"),
        ("attribute value", "<a v=\"\(String(repeating: "v", count: 5_000))\"/>"),
        ("name", "<a><\(String(repeating: "n", count: 5_000))/></a>")
    ]

    @Test(arguments: longTokens)
    func aTokenLongerThanTheLimitStopsEveryParser(what: String, xml: String) throws {
        for (name, parser) in Self.parsers(limits: Self.limits) {
            let error = try #require(throws: IngestError.self, "\(name): \(what)") {
                try parser.parse(bytes: Array(xml.utf8), into: EventLog())
            }
            #expect(error.reason == .textLimit(1_000), "\(name): \(what)")
            #expect(error.kind == .data, "\(name): \(what)")
        }
    }

    @Test(arguments: longTokens)
    func theSameTokenPassesUnderTheDefaultLimits(what: String, xml: String) throws {
        for (name, parser) in Self.parsers(limits: .default) {
            #expect(throws: Never.self, "\(name): \(what)") {
                try parser.parse(bytes: Array(xml.utf8), into: EventLog())
            }
        }
    }

    /// Long text is not one token: every parser delivers it in pieces as it comes.
    @Test func longTextIsNotHeldAsOneToken() throws {
        let text = String(repeating: "t", count: 50_000)
        for (name, parser) in Self.parsers(limits: Self.limits) {
            let log = EventLog()
            try parser.parse(bytes: Array("<a>\(text)</a>".utf8), into: log)
            #expect(log.events.first == "<a>", "\(name)")
            #expect(log.events.last == "</a>", "\(name)")
            #expect(log.events.dropFirst().dropLast().joined() == text, "\(name)")
        }
    }

    /// The push parser a parser makes carries its limits.
    @Test func pushParsersCarryTheLimits() throws {
        let bytes = Array("<a><!--\(String(repeating: "c", count: 5_000))--></a>".utf8)
        let parsers: [(String, any PushParser)] = [
            ("expat", ExpatParser(limits: Self.limits).makePushParser(receiver: EventLog(), displayName: "p.xml")),
            (
                "libxml2",
                try LibXML2Parser(allowsHugeDocuments: true, limits: Self.limits)
                    .makePushParser(receiver: EventLog(), displayName: "p.xml")
            )
        ]
        for (name, parser) in parsers {
            let error = try #require(throws: IngestError.self, "\(name)") {
                var offset = 0
                while offset < bytes.count {
                    try parser.feed(bytes[offset..<min(offset + 100, bytes.count)])
                    offset += 100
                }
                try parser.finish()
            }
            #expect(error.reason == .textLimit(1_000), "\(name)")
            #expect(error.file == "p.xml", "\(name)")
            #expect(error.position?.line == 1, "\(name)")
        }
    }

    /// Either parser reads a document in the encoding it is given, over what its
    /// declaration says, as an HTTP charset overrides it (RFC 7303).
    @Test func theGivenEncodingOverridesTheDeclaration() throws {
        let bytes = Array(#"<?xml version="1.0" encoding="UTF-8"?><a>caf"#.utf8) + [0xE9] + Array("</a>".utf8)
        let parsers: [(String, any StreamingParser)] = [
            ("expat", ExpatParser(encoding: "ISO-8859-1")), ("libxml2", LibXML2Parser(encoding: "ISO-8859-1"))
        ]
        for (name, parser) in parsers {
            let log = EventLog()
            try parser.parse(bytes: bytes, into: log)
            #expect(log.events == ["<a>", "café", "</a>"], "\(name)")
        }
        #expect(throws: IngestError.self) { try ExpatParser().parse(bytes: bytes, into: EventLog()) }
    }
}

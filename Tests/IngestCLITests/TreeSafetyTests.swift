import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hostile inputs of SafetyTests, through libxml2: tree mode and validation.
@Suite("Hostile inputs through libxml2 (--xpath, --validate)")
struct TreeSafetyTests {
    static let xxe = """
        <!DOCTYPE people [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><people><person><firstName>&xxe;</firstName><lastName>x</lastName></person></people>
        """
    static let xsd = Locations.packageRoot.appendingPathComponent("Schemas/folks.xsd").path

    static var secret: String {
        let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? ""
        return passwd.contains("root:") ? "root:" : String(passwd.prefix(while: { $0 != "\n" }))
    }

    @Test(
        "An external entity never reaches the output",
        arguments: [
            ["--xpath", "//person"],
            ["--validate", xsd],
            ["--validate", xsd, "--xpath", "//person"]
        ])
    func externalEntity(mode: [String]) throws {
        let box = try Sandbox()
        try box.write("xxe.xml", Self.xxe)

        let result = try box.run(["xxe.xml", "--out", "out.db"] + mode)

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("xxe.xml:1: external entity \"file:///etc/passwd\" refused"), "\(result)")
        #expect(!box.exists("out.db"), "a failed run writes no database")
        #expect(!result.stderr.contains(Self.secret), "diagnostics leak /etc/passwd: \(result)")
        #expect(!result.stdout.contains(Self.secret))
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test("Billion laughs is refused quickly in tree mode and by validation")
    func billionLaughs() throws {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE people [\n<!ENTITY lol \"lol\">\n"
        xml += "<!ENTITY lol1 \"" + String(repeating: "&lol;", count: 10) + "\">\n"
        for level in 2...9 {
            xml += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
        }
        xml += "]>\n<people><person><firstName>&lol9;</firstName></person></people>\n"
        let box = try Sandbox()
        try box.write("lol.xml", xml)

        let started = Date()
        let tree = try box.run(["lol.xml", "--xpath", "//person", "--out", "out.db"])
        let validated = try box.run(["lol.xml", "--validate", Self.xsd, "--out", "out.db"])

        #expect(tree.status == 65, "\(tree)")
        #expect(validated.status == 65, "\(validated)")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(!box.exists("out.db"))
    }

    @Test("An external DTD is never fetched, in tree mode or by validation")
    func externalDTDNotFetched() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 4) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        #expect(bound)
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        let port = UInt16(bigEndian: address.sin_port)
        let box = try Sandbox()
        try box.write(
            "folks.xml",
            """
            <?xml version="1.0"?>
            <!DOCTYPE people SYSTEM "http://127.0.0.1:\(port)/people.dtd">
            <people><person><firstName>Dudley</firstName><lastName>Doright</lastName></person></people>
            """)

        let tree = try box.run(["folks.xml", "--xpath", "//person", "--out", "tree.db"])
        let validated = try box.run(["folks.xml", "--validate", Self.xsd, "--out", "valid.db"])

        #expect(tree.status == 0, "\(tree)")
        #expect(validated.status == 0, "\(validated)")
        #expect(try box.rows("tree.db", "SELECT * FROM people") == [["Dudley", "Doright"]])
        let connection = accept(listener, nil, nil)
        #expect(connection < 0, "something fetched the DTD")
        if connection >= 0 { close(connection) }
    }
}

import Foundation
import Testing

/// In JSON a number is a number: whatever its spelling it is stored as INTEGER or REAL,
/// written to JSON outputs as a number with the input's digits, to plists as
/// `<integer>` or `<real>`, and proposed by `schema infer` as one.
@Suite("JSON numbers stay numbers")
struct JSONNumberTests {
    @Test("Prices written 9.5, 10.00 and 100 make a REAL column that sorts as numbers")
    func pricesAreReal() throws {
        let box = try Sandbox()
        try box.write("prices.json", #"[{"price":9.5},{"price":10.00},{"price":100}]"#)

        let result = try box.run(["prices.json"])

        #expect(result.status == 0, "\(result)")
        #expect(
            try box.rows("prices.db", "SELECT type FROM pragma_table_info('prices') WHERE name = 'price'") == [["REAL"]]
        )
        #expect(
            try box.rows("prices.db", "SELECT price, typeof(price) FROM prices ORDER BY price")
                == [["9.5", "real"], ["10.0", "real"], ["100.0", "real"]])
    }

    @Test("NDJSON to standard output writes numbers as numbers, with the input's digits")
    func ndjsonKeepsDigits() throws {
        let box = try Sandbox()
        try box.write("g.ndjson", #"{"lat":51.50735090,"sci":6.02e23,"big":18446744073709551616,"n":7,"s":"7"}"# + "\n")

        let result = try box.run(["g.ndjson", "--to", "ndjson", "--out", "-"])

        #expect(result.status == 0, "\(result)")
        let line = String(decoding: result.stdout, as: UTF8.self)
        #expect(line == #"{"lat":51.50735090,"sci":6.02e23,"big":18446744073709551616,"n":7,"s":"7"}"# + "\n")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect((object["lat"] as? NSNumber)?.doubleValue == 51.5073509, "jq's .lat + 1 needs a number")
        #expect(object["s"] as? String == "7")
    }

    @Test("A property list gets <real> for 10.00 and 6.02e23, <integer> for 7")
    func plistNumbers() throws {
        let box = try Sandbox()
        try box.write("g.ndjson", #"{"p":10.00,"sci":6.02e23,"n":7}"# + "\n")

        let result = try box.run(["g.ndjson", "--to", "plist"])

        #expect(result.status == 0, "\(result)")
        let text = String(decoding: try box.contents("g.plist"), as: UTF8.self)
        #expect(text.range(of: #"<key>p</key>\s*<real>10(\.0)?</real>"#, options: .regularExpression) != nil, "\(text)")
        #expect(text.range(of: #"<key>sci</key>\s*<real>"#, options: .regularExpression) != nil, "\(text)")
        #expect(text.range(of: #"<key>n</key>\s*<integer>7</integer>"#, options: .regularExpression) != nil, "\(text)")
    }

    @Test("schema infer proposes real for a field written 10.00")
    func inferProposesReal() throws {
        let box = try Sandbox()
        try box.write("prices.json", #"[{"price":9.5},{"price":10.00},{"price":100}]"#)

        let result = try box.run(["schema", "infer", "prices.json"])

        #expect(result.status == 0, "\(result)")
        let json = String(decoding: result.stdout, as: UTF8.self)
        #expect(
            json.range(of: #""name"\s*:\s*"price"[^}]*"type"\s*:\s*"real""#, options: .regularExpression) != nil,
            "\(json)")
    }
}

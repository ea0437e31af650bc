import Testing
@testable import IngestCore
import IngestTesting
import IngestTestSupport

@Suite struct FieldValueTests {
    func infer(_ text: String) -> FieldValue {
        var text = text
        return text.withUTF8 { FieldValue.inferring($0) }
    }

    @Test func dataShowsAsBase64Text() {
        #expect(FieldValue.data([0, 1, 2, 0xFF]).text == "AAEC/w==")
        #expect(FieldValue.data([]).text == "")
        #expect(FieldValue.data(Array("fo".utf8)).jsonValue == .string("Zm8="))
    }

    @Test(arguments: ["0", "42", "-7", "9223372036854775807", "-9223372036854775808"])
    func canonicalIntegersAreIntegers(_ text: String) {
        #expect(infer(text) == .number(.init(text: text, kind: .integer)))
    }

    @Test(arguments: ["472.942", "-312.089", "73.0", "0.5", "-0.001"])
    func shortestDecimalsAreReals(_ text: String) {
        #expect(infer(text) == .number(.init(text: text, kind: .real)))
    }

    @Test(arguments: [
        "007", "+1", "-0", "1.50", "1e5", "9223372036854775808", "0.30000000000000004",
        "12345678901234567.5", " 42", "42 ", "", "1,5", "NaN", "inf", "0x10", "2024-01-02", "-", "."
    ])
    func anythingThatWouldNotSurviveConversionStaysText(_ text: String) {
        #expect(infer(text) == .text(text))
    }
}

@Suite("Number rules: the fast path agrees with the slow one")
struct NumberFastPathTests {
    @Test("Every decimal the fast path calls REAL is the shortest form of its Double")
    func fastPathAgrees() {
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for _ in 0..<20_000 {
            let integer =
                Int.random(in: 0...3, using: &generator) == 0
                ? "0" : String(Int.random(in: 1...999_999_999, using: &generator))
            let fraction = String(Int.random(in: 1...99_999_999, using: &generator))
            let padded = String(repeating: "0", count: Int.random(in: 0...3, using: &generator)) + fraction
            let text = (Bool.random(using: &generator) ? "-" : "") + integer + "." + padded
            var copy = text
            let fast = copy.withUTF8 { NumberSyntax.isPlainShortestDecimal($0) }
            guard fast else { continue }
            checked += 1
            #expect(Double(text)!.description == text, "\(text) is not the shortest form")
        }
        #expect(checked > 1_000)
        for text in ["73.0", "1.50", "0.05", "1234567890123456.5", "01.5", "1e5", ".5", "1."] {
            var copy = text
            #expect(!copy.withUTF8 { NumberSyntax.isPlainShortestDecimal($0) }, "\(text)")
        }
    }
}

@Suite("Short decimals read without strtod")
struct ShortDecimalTests {
    func shortDecimal(_ text: String) -> Double? {
        var copy = text
        return copy.withUTF8 { NumberSyntax.shortDecimal($0) }
    }

    @Test("Every short decimal reads to the bits strtod gives it")
    func agreesWithStrtod() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50_000 {
            let digitCount = Int.random(in: 1...15, using: &generator)
            var digits = (0..<digitCount).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) }
            if digitCount > 1, Bool.random(using: &generator) {
                digits.insert(".", at: Int.random(in: 1..<digitCount, using: &generator))
            }
            let text = (Bool.random(using: &generator) ? "-" : "") + String(digits)
            guard let fast = shortDecimal(text) else {
                Issue.record("\(text) was not read")
                continue
            }
            #expect(fast.bitPattern == Double(text)!.bitPattern, "\(text): \(fast) against \(Double(text)!)")
        }
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("-0.0", -0.0), ("000.50", 0.5), ("472.942", 472.942),
        ("999999999999999", 999_999_999_999_999), ("0.00000000000001", 1e-14), ("-1.5", -1.5)
    ])
    func reads(_ text: String, _ value: Double) {
        #expect(shortDecimal(text)?.bitPattern == value.bitPattern)
    }

    @Test(
        "Any other form is left to strtod",
        arguments: [
            "", "-", ".", "1.", ".5", "-.5", "1e5", "1E-3", "+1", " 1", "1 ", "1.2.3", "0x10", "inf", "nan",
            "9999999999999999", "1.000000000000000", "12345678901234567890"
        ])
    func declines(_ text: String) {
        #expect(shortDecimal(text) == nil)
    }

    @Test("What it declines still reads as strtod reads it")
    func fallsBack() {
        for text in ["1e5", "1.000000000000000", "123456789012345678", "1e400"] {
            var copy = text
            let value = copy.withUTF8 { NumberSyntax.double(UnsafeRawBufferPointer($0)) }
            #expect(value.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }
}

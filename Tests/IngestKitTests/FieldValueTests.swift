import Testing
@testable import IngestKit

@Suite struct FieldValueTests {
    func infer(_ text: String) -> FieldValue {
        var text = text
        return text.withUTF8 { FieldValue.inferring($0) }
    }

    @Test(arguments: ["0", "42", "-7", "9223372036854775807", "-9223372036854775808"])
    func canonicalIntegersAreIntegers(_ text: String) {
        #expect(infer(text) == .number(.init(text: text, kind: .integer)))
    }

    @Test(arguments: ["472.942", "-312.089", "73.0", "0.5", "-0.001"])
    func shortestDecimalsAreReals(_ text: String) {
        #expect(infer(text) == .number(.init(text: text, kind: .real)))
    }

    @Test(arguments: ["007", "+1", "-0", "1.50", "1e5", "9223372036854775808", "0.30000000000000004",
                      "12345678901234567.5", " 42", "42 ", "", "1,5", "NaN", "inf", "0x10", "2024-01-02", "-", "."])
    func anythingThatWouldNotSurviveConversionStaysText(_ text: String) {
        #expect(infer(text) == .text(text))
    }
}

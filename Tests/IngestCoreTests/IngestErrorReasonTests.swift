import Testing
@testable import IngestCore
import IngestPOSIX

/// `IngestError.Reason`: codes each module declares, values read back typed, and a
/// code of the caller's own.
@Suite struct IngestErrorReasonTests {
    @Test("A reason equals another of the same code and value, and no other")
    func equality() {
        #expect(IngestError.Reason.depthLimit(10) == .depthLimit(10))
        #expect(IngestError.Reason.depthLimit(10) != .depthLimit(11))
        #expect(IngestError.Reason.depthLimit(10) != .textLimit(10))
        #expect(IngestError.Reason.moreThanOneJSONDocument == .moreThanOneJSONDocument)
        #expect(
            IngestError.Reason.recordPathMatchedNothing("a/b", suggestions: ["a/c"])
                != .recordPathMatchedNothing("a/b", suggestions: []))
    }

    @Test("Accessors read their codes' values; the code-specific ones nothing else")
    func accessorsAreTyped() {
        let depth = IngestError.Reason.depthLimit(1000)
        #expect(depth.code == .depthLimit)
        #expect(depth.limit == 1000)
        #expect(depth.appendable == nil)
        #expect(depth.waitedSeconds == nil)
        #expect(depth.suggestions.isEmpty)

        #expect(IngestError.Reason(.depthLimit, 2.5).waitedSeconds == nil)
        #expect(IngestError.Reason(.depthLimit, Int32(2)).signal == nil)
        #expect(IngestError.Reason.interrupted(signal: 2).signal == 2)

        let exists = IngestError.Reason.outputExists(appendable: true)
        #expect(exists.appendable == true)
        #expect(exists.limit == nil)

        let missing = IngestError.Reason.recordPathMatchedNothing("rss/x", suggestions: ["rss/channel/item"])
        #expect(missing.paths == ["rss/x"])
        #expect(missing.suggestions == ["rss/channel/item"])
        #expect(missing.missingColumn == nil)

        let column = IngestError.Reason.missingColumn(table: "people", field: "age")
        #expect(column.missingColumn == IngestError.MissingColumn(table: "people", field: "age"))
        #expect(IngestError.Reason.outputBusy(waitedSeconds: 2.5).waitedSeconds == 2.5)
    }

    @Test("A program declares a code of its own and matches it as the library's")
    func callersDeclareTheirOwnCodes() {
        let error = IngestError(.data, "quota exceeded", reason: .init(.quotaExceeded, 42))
        switch error.reason?.code {
        case .depthLimit?, .textLimit?: Issue.record("matched a library code")
        case .quotaExceeded?: #expect(error.reason?.limit == 42)
        default: Issue.record("did not match its own code")
        }
        #expect(error.reason?.description == "quotaExceeded(42)")
        #expect(IngestError.Reason.moreThanOneJSONDocument.description == "moreThanOneJSONDocument")
    }

    @Test("The description reads like a compiler diagnostic; the reason does not change it")
    func descriptionIsThePlaceAndMessage() {
        let position = SourcePosition(line: 2, column: 7, byteOffset: 20)
        let error = IngestError(
            .data, "nested deeper than 3 levels", file: "deep.json", position: position, reason: .depthLimit(3))
        #expect(error.description == "deep.json:2:7: nested deeper than 3 levels")
        #expect(error.inFile("other.json").file == "deep.json")
        #expect(IngestError(.usage, "no input").inFile("x.xml").description == "x.xml: no input")
    }
}

extension IngestError.Code {
    fileprivate static let quotaExceeded = Self("quotaExceeded")
}

import Testing
@testable import IngestCore

/// `ColumnType`: the one type vocabulary, and how the automatic mapping widens it.
@Suite struct ColumnTypeTests {
    @Test("Each value's narrowest type; NULL fits any")
    func narrowestTypeOfEachValue() {
        #expect(ColumnType(holding: .null) == nil)
        #expect(ColumnType(holding: .bool(false)) == .bool)
        #expect(ColumnType(holding: .number(.init(text: "-12", kind: .integer))) == .integer)
        #expect(ColumnType(holding: .number(.init(text: "472.942", kind: .real))) == .real)
        #expect(ColumnType(holding: .text("007")) == .text)
        #expect(ColumnType(holding: .json("[1]", .array)) == .json)
        #expect(ColumnType(holding: .data([0xFF])) == .data)
    }

    @Test(
        "Booleans are integers among numbers, data holds anything, any other mix is text",
        arguments: [
            (ColumnType.bool, ColumnType.integer, ColumnType.integer), (.bool, .real, .real),
            (.integer, .real, .real), (.json, .json, .json), (.json, .text, .text), (.json, .integer, .text),
            (.bool, .text, .text), (.date, .datetime, .text), (.date, .date, .date), (.text, .data, .data),
            (.bool, .data, .data), (.json, .data, .data)
        ])
    func wideningRules(first: ColumnType, second: ColumnType, widened: ColumnType) {
        #expect(first.widened(toHold: second) == widened)
        #expect(second.widened(toHold: first) == widened)
    }

    @Test("Widening is order-free and final: the widened type holds both and widens no further")
    func wideningIsALattice() {
        for first in ColumnType.allCases {
            #expect(first.widened(toHold: first) == first)
            for second in ColumnType.allCases {
                let both = first.widened(toHold: second)
                #expect(both == second.widened(toHold: first))
                #expect(both.widened(toHold: first) == both, "\(first), \(second)")
                #expect(both.widened(toHold: second) == both, "\(first), \(second)")
                for third in ColumnType.allCases {
                    #expect(
                        both.widened(toHold: third) == first.widened(toHold: second.widened(toHold: third)),
                        "\(first), \(second), \(third)")
                }
            }
        }
    }

    @Test("A designed table's ColumnType is the same type (the old name is a deprecated alias)")
    func designsShareTheVocabulary() {
        let column = TableDesign.Column(name: "born", type: .date)
        let type: ColumnType = column.type
        #expect(type == .date)
        #expect(ColumnType(rawValue: "datetime") == .datetime)
        #expect(ColumnType(rawValue: "untyped") == nil)
    }
}

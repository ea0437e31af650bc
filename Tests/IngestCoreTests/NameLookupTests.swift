import Testing
@testable import IngestCore

/// The short cuts of name lookups: `bytesEqual`'s overlapping loads, and the JSON
/// tokenizer's guess of the next key from the one before.
@Suite("Name lookups")
struct NameLookupTests {
    @Test("bytesEqual: equal runs of every length up to 40 are equal, and one byte changed anywhere is not")
    func bytesEqualAtEveryLengthAndPlace() {
        for count in 0...40 {
            let original = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            original.withUnsafeBytes { a in
                var copy = original
                copy.withUnsafeBytes { b in
                    #expect(count == 0 || bytesEqual(a.baseAddress!, b.baseAddress!, count: count))
                }
                for place in 0..<count {
                    copy[place] ^= 0x40
                    copy.withUnsafeBytes { b in
                        #expect(
                            !bytesEqual(a.baseAddress!, b.baseAddress!, count: count),
                            "length \(count), byte \(place) changed")
                    }
                    copy[place] ^= 0x40
                }
            }
        }
    }

    @Test("bytesEqual reads only the bytes it is given")
    func bytesEqualStaysInside() {
        // The same bytes followed by different ones: only `count` bytes are compared.
        let a: [UInt8] = Array("firstNameX".utf8), b: [UInt8] = Array("firstNameY".utf8)
        a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                for count in 0...9 { #expect(count == 0 || bytesEqual(a.baseAddress!, b.baseAddress!, count: count)) }
                #expect(!bytesEqual(a.baseAddress!, b.baseAddress!, count: 10))
            }
        }
    }

    @Test("NameIndex: names of many tables that share ids each find their own value, by identity or by bytes")
    func nameIndexAcrossTables() throws {
        var index = NameIndex()
        // Every table gives id 0 to its first name: the slot changes hands each time.
        var kept: [Name] = []
        for table in 0..<1000 {
            let names = NameTable()
            let name = names.intern(table % 2 == 0 ? "even" : "odd\(table)")
            kept.append(name)
            if index.value(for: name) == nil { index.set(table, for: name) }
        }
        // Found again, first by bytes (another table's name holds the slot), then by identity.
        for (table, name) in kept.enumerated() {
            #expect(index.value(for: name) == (table % 2 == 0 ? 0 : table))
            #expect(index.value(for: name) == (table % 2 == 0 ? 0 : table))
        }
        #expect(index.value(for: NameTable().intern("odd0")) == nil)
    }

    @Test("Keys that change order, nest, repeat and differ by a byte still name their values")
    func keyGuessesNeverMisname() throws {
        let json = """
            [{"a":1,"bb":2,"ccc":{"a":3,"x":4}},
             {"bb":5,"a":6,"ccc":{"x":7,"a":8}},
             {"a":9,"ab":10,"bb":11,"ccc":[{"a":12}],"a2":13},
             {"ccc":{},"a":14},
             {"firstName":15,"firstNamf":16,"firstName":17}]
            """
        let events = try jsonEvents(json)
        let scalars = events.filter { $0.contains(":number=") }
        #expect(
            scalars == [
                "a:number=1", "bb:number=2", "a:number=3", "x:number=4",
                "bb:number=5", "a:number=6", "x:number=7", "a:number=8",
                "a:number=9", "ab:number=10", "bb:number=11", "a:number=12", "a2:number=13",
                "a:number=14",
                "firstName:number=15", "firstNamf:number=16", "firstName:number=17"
            ])
        #expect(events.contains("{ccc") && events.contains("[ccc"))
    }
}

import IngestCore

/// A random number generator from a seed (SplitMix64): the same seed gives the same
/// numbers on every machine, so a failing case can be run again.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random JSON documents whose table and field names are hard to keep apart: names
/// differing only in case or in Unicode normalisation, holding a NUL or a character
/// XML cannot carry, starting with `sqlite_`, SQL keywords, names of 10 000
/// characters, and the names an output gives when it renames (`x_2`, `x_3`). Every
/// value is a distinct integer, so each can be looked for in an output.
public struct NameCase: CustomStringConvertible {
    /// One value of the document: the table its record is in, its field, the value.
    public struct Value {
        public let table: String
        public let field: String
        public let value: Int
    }

    public let seed: UInt64
    /// The document: `{"table": [{"field": value, …}, …], …}`.
    public let json: String
    public let values: [Value]

    public var description: String { "seed \(seed): \(json.count > 2_000 ? String(json.prefix(2_000)) + "…" : json)" }

    /// Field names, some of which become the same name in some output, or a name an
    /// output would rename another to.
    public static let fieldNames: [String] = [
        "x", "X", "x_2", "X_2", "x_3", "x_2_2", "id", "ID", "Id", "id_2", "ID_2",
        "\u{E9}", "e\u{301}", "\u{C9}", "E\u{301}",
        "a\u{0}", "a\u{FFFD}", "a\u{FFFD}_2", "a\u{0}_2", "\u{0}", "\u{FFFD}", "a\u{1}", "a\u{FFFE}",
        "sqlite_x", "_sqlite_x", "select", "SELECT", "from", "order", "table", "x\"y", "x y",
        "", "_", "_2", "__2", "$a", "$$a", "$class",
        String(repeating: "n", count: 10_000), String(repeating: "n", count: 10_000) + "_2",
        String(repeating: "p", count: 70), String(repeating: "p", count: 70) + "q",
        String(repeating: "p", count: 61) + "_2",
        String(repeating: "\u{E9}", count: 40)
    ]

    /// Table names: a record kind the mapping names its table after.
    public static let tableNames: [String] = [
        "t", "T", "t_2", "T_2", "sqlite_t", "SQLITE_T", "_sqlite_t", "_sqlite_t_2", "sqlite_t_2",
        "\u{E9}", "e\u{301}", "t\u{0}", "t\u{FFFD}", "t\u{FFFD}_2", "t\u{1}", "select", "order", "x\"y",
        String(repeating: "m", count: 10_000)
    ]

    /// A document of up to four tables of up to four records, each with up to eight
    /// fields, the names drawn from `tableNames` and `fieldNames`; values count up from `firstValue`.
    public init(
        seed: UInt64, firstValue: Int = 1, tableNames: [String] = NameCase.tableNames,
        fieldNames: [String] = NameCase.fieldNames
    ) {
        self.seed = seed
        var random = SeededGenerator(seed: seed)
        var next = firstValue
        var values: [Value] = []
        var json = "{"
        let tables = Self.distinct(tableNames, count: Int.random(in: 1...4, using: &random), using: &random)
        for (tableIndex, table) in tables.enumerated() {
            if tableIndex > 0 { json += "," }
            JSONValue.writeString(table, to: &json)
            json += ":["
            let fields = Self.distinct(fieldNames, count: Int.random(in: 1...8, using: &random), using: &random)
            for record in 0..<Int.random(in: 1...4, using: &random) {
                if record > 0 { json += "," }
                json += "{"
                let present = fields.filter { _ in Int.random(in: 0..<4, using: &random) > 0 }.shuffled(using: &random)
                for (fieldIndex, field) in present.enumerated() {
                    if fieldIndex > 0 { json += "," }
                    JSONValue.writeString(field, to: &json)
                    json += ":\(next)"
                    values.append(Value(table: table, field: field, value: next))
                    next += 1
                }
                json += "}"
            }
            json += "]"
        }
        json += "}"
        self.json = json
        self.values = values
    }

    /// `count` names from `names`, different by their bytes, in random order.
    private static func distinct(_ names: [String], count: Int, using random: inout SeededGenerator) -> [String] {
        Array(names.indices.shuffled(using: &random).prefix(count).map { names[$0] })
    }

    /// Where an output keeps one value: the table (or its key) and the column (or key).
    public struct Stored {
        public let table: String
        public let name: String
        public let value: Int

        public init(table: String, name: String, value: Int) {
            self.table = table
            self.name = name
            self.value = value
        }
    }

    /// What is wrong with `stored`, what an output kept of this document: every value
    /// must come back once, the values of one table's field all under one name, and
    /// those of two fields under two. Names compare by their bytes.
    public func problems(in stored: [Stored]) -> [String] {
        var problems: [String] = []
        var storedByValue: [Int: [Stored]] = [:]
        for item in stored { storedByValue[item.value, default: []].append(item) }
        var placeOfField: [Place: Place] = [:]
        var fieldOfPlace: [Place: Place] = [:]
        for value in values {
            let places = storedByValue.removeValue(forKey: value.value) ?? []
            guard places.count == 1 else {
                problems.append(
                    "\(Self.show(value.table)).\(Self.show(value.field)) = \(value.value) comes back \(places.count) times"
                )
                continue
            }
            let field = Place(value.table, value.field), place = Place(places[0].table, places[0].name)
            if let known = placeOfField[field], known != place {
                problems.append("\(field) is kept under both \(known) and \(place)")
            }
            if let known = fieldOfPlace[place], known != field {
                problems.append("\(known) and \(field) are both kept under \(place)")
            }
            placeOfField[field] = place
            fieldOfPlace[place] = field
        }
        for (value, _) in storedByValue { problems.append("\(value) was not in the input") }
        return problems
    }

    /// The names the values of `stored` were kept under, by their field: for comparing
    /// two runs' names.
    public func names(in stored: [Stored]) -> [String] {
        let byValue = Dictionary(stored.map { ($0.value, Place($0.table, $0.name)) }) { first, _ in first }
        return values.map { byValue[$0.value].map(\.description) ?? "missing" }
    }

    /// A table and a name in it, equal only when their bytes are.
    private struct Place: Hashable, CustomStringConvertible {
        let table: [UInt8], name: [UInt8]
        init(_ table: String, _ name: String) {
            self.table = Array(table.utf8)
            self.name = Array(name.utf8)
        }
        var description: String {
            NameCase.show(String(decoding: table, as: UTF8.self)) + "."
                + NameCase.show(String(decoding: name, as: UTF8.self))
        }
    }

    /// A name for a message: escaped, and a long one cut.
    static func show(_ name: String) -> String {
        let shown = name.count > 40 ? String(name.prefix(20)) + "…(\(name.count))" : name
        return shown.unicodeScalars.map {
            $0.isASCII && $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}"
        }.joined()
    }
}

import IngestCore
/// The sink ``SchemaInference`` runs the automatic mapping into: it writes nothing,
/// and keeps per table what a schema needs — where the records are, the fields in
/// the order first met, where each field's value was and what its values were.
///
/// After ``sampleSize`` records of one input it throws ``SampleComplete`` to stop the
/// parse; the parser reports that as a failure of its own, so ``stoppedEarly`` tells
/// the caller that the failure was the sample ending.
final class SchemaSampler: RecordSink, RecordLocationObserver {
    /// One table of the sample: an entity of the schema.
    final class Table {
        var name: String
        /// Record path steps, below the top-level value for JSON; nil until known.
        var path: [String]?
        var fields: [Field] = []
        var recordCount = 0
        /// Field index by name, across inputs and merged tables.
        private var indexByName = NameIndex()

        init(name: String) { self.name = name }

        func add(_ record: IngestRecord) {
            recordCount += 1
            for field in record.fields {
                let index = self.index(of: field.name)
                fields[index].evidence.add(field.value)
                fields[index].origins.insert(field.origin)
            }
        }

        private func index(of name: Name) -> Int {
            if let index = indexByName.value(for: name) { return index }
            let index = index(of: name.qualified)
            indexByName.set(index, for: name)
            return index
        }

        private func index(of name: String) -> Int {
            if let index = indexByName.value(forQualified: name) { return index }
            fields.append(Field(name: name))
            indexByName.set(fields.count - 1, forQualified: name)
            return fields.count - 1
        }

        /// Takes in the fields and records of `other`, a table that turned out to be
        /// this one; its fields new to this table come after this table's.
        func merge(_ other: Table) {
            recordCount += other.recordCount
            for field in other.fields {
                let index = index(of: field.name)
                fields[index].evidence.merge(field.evidence)
                fields[index].origins.formUnion(field.origins)
            }
        }
    }

    /// One field of a table, as far as the sample shows it.
    struct Field {
        var name: String
        var evidence = FieldTypeEvidence()
        /// Every origin its values had; the first one met is the schema's source.
        var origins = Origins()

        init(name: String) { self.name = name }
    }

    /// A set of ``IngestRecord/Field/Origin``s that remembers the first one added.
    struct Origins {
        private var bits: UInt8 = 0
        private(set) var first: IngestRecord.Field.Origin?

        mutating func insert(_ origin: IngestRecord.Field.Origin) {
            if first == nil { first = origin }
            bits |= 1 << origin.rawValue
        }

        mutating func formUnion(_ other: Origins) {
            if first == nil { first = other.first }
            bits |= other.bits
        }

        /// Whether values came from more than one place.
        var isMixed: Bool { bits & (bits &- 1) != 0 }
    }

    /// Thrown from ``write(_:)`` to end the parse once the sample is complete.
    struct SampleComplete: Error, CustomStringConvertible {
        var description: String { "the sample is complete" }
    }

    /// Records to take from each input; 0 takes them all.
    var sampleSize = 0
    /// Tables in the order first met.
    private(set) var tables: [Table] = []
    private var tableByName: [String: Table] = [:]
    // Safety: the sampler is the sink of one import and is written on one thread;
    // nothing it calls while reading `current` can reach it again.
    @exclusivity(unchecked) private var current: Table?
    /// Whether the current input is JSON, whose record paths start below the top-level value.
    private var dropsDocumentStep = false
    private(set) var recordsInInput = 0
    /// Whether the parse of the current input was stopped by ``SampleComplete``.
    private(set) var stoppedEarly = false
    /// Records paths that could not be merged, as messages.
    private(set) var pathConflicts: [String] = []

    /// Gets ready for the next input, in `format`.
    func beginInput(format: InputFormat) {
        dropsDocumentStep = format != .xml
        recordsInInput = 0
        stoppedEarly = false
        current = nil
    }

    func write(_ record: IngestRecord) throws {
        let table: Table
        if let current, current.name == record.table {
            table = current
        } else {
            table = self.table(named: record.table)
            current = table
        }
        table.add(record)
        recordsInInput += 1
        if sampleSize > 0, recordsInInput >= sampleSize {
            stoppedEarly = true
            throw SampleComplete()
        }
    }

    func renameTable(_ old: String, to new: String) throws {
        guard old != new, let table = tableByName.removeValue(forKey: old) else { return }
        if let existing = tableByName[new] {
            existing.merge(table)
            existing.path = merged(existing.path, table.path, table: new)
            tables.removeAll { $0 === table }
            if current === table { current = existing }
        } else {
            table.name = new
            tableByName[new] = table
        }
    }

    func finish() throws {}

    func mapping(named table: String, forRecordsAt path: [String]) {
        let steps = Array(path.dropFirst(dropsDocumentStep ? 1 : 0))
        let table = self.table(named: table)
        table.path = merged(table.path, steps, table: table.name)
    }

    private func table(named name: String) -> Table {
        if let table = tableByName[name] { return table }
        let table = Table(name: name)
        tables.append(table)
        tableByName[name] = table
        return table
    }

    /// One path for records met at two: equal steps stay, differing ones become `*`.
    /// Paths of different lengths cannot be one; the first is kept and the conflict noted.
    private func merged(_ path: [String]?, _ other: [String]?, table: String) -> [String]? {
        guard let path else { return other }
        guard let other, other != path else { return path }
        guard other.count == path.count else {
            let message =
                "\(table): records are at both \(Self.written(path)) and \(Self.written(other)); the schema says \(Self.written(path))"
            if !pathConflicts.contains(message) { pathConflicts.append(message) }
            return path
        }
        return zip(path, other).map { $0 == $1 ? $0 : "*" }
    }

    /// A records path as the schema writes it: `.` for a JSON document that is one record.
    static func written(_ steps: [String]) -> String {
        steps.isEmpty ? "." : steps.joined(separator: "/")
    }
}

import IngestCore
/// Writes records as a property list — Apple's XML format or `bplist00` — streamed,
/// with flat memory.
///
/// The root is an array with one dictionary per record, in order. When records go
/// to several tables, the root is a dictionary of such arrays, keyed by table name
/// in the order the tables were first met. A record's fields become the
/// dictionary's entries, typed as ``PlistScalar`` describes (dates included);
/// `null` fields are left out.
///
/// While records arrive, each table's records are written to a spool file beside
/// the output (XML: their text; binary: their objects into ``BinaryPlistWriter``'s
/// spool and their references into the table's spool). ``finish()`` assembles the
/// file and renames it into place. To an XML output that ``OutputFile/streams``,
/// records are written straight to it instead, flushed after every batch.
///
final class PlistSink: FileRecordSink {
    let format: PlistFormat
    private let output: OutputFile
    private let tables: TableSpools
    private let xml: XMLPlistWriter?
    private let binary: BinaryPlistWriter?
    /// Interns the keys of every nested value this sink writes.
    private let nestedNames = NameTable()
    /// XML: the keys of each table's fields, by table index.
    private var xmlKeys: [XMLPlistKeys] = []
    private var writer: any PlistEventWriter { xml ?? binary! }

    init(output: OutputFile, format: PlistFormat) throws {
        self.output = output
        self.format = format
        tables = TableSpools(output: output)
        switch format {
        case .xml:
            xml = XMLPlistWriter(output: try output.writer(), depth: 1)
            binary = nil
        case .binary:
            xml = nil
            binary = BinaryPlistWriter(spool: try output.makeSpool())
        }
    }

    func write(_ record: IngestRecord) throws {
        let table = try tables.index(of: record.table)
        if let xml {
            xml.output = tables.writer(at: table)
            if xmlKeys.count <= table { xmlKeys.append(XMLPlistKeys()) }
            if output.streams, tables.tables[table].recordCount == 0 {
                try xml.output.write(XMLPlistWriter.header + "<array>\n")
            }
        }
        try writer.beginDictionary()
        for field in record.fields {
            switch try PlistContent(field.value, dates: true) {
            case .absent: continue
            case .scalar(let scalar):
                try writer.key(key(for: field.name, in: table))
                try writer.scalar(scalar)
            case .nested(let text):
                try writer.key(key(for: field.name, in: table))
                try writer.write(json: text, dates: true, names: nestedNames)
            }
        }
        try writer.endDictionary()
        if let binary { try tables.writer(at: table).write(bigEndian: UInt64(binary.lastRef), size: 4) }
        tables.countRecord(at: table)
    }

    /// The key of field `name` in the records of table `table`: its name, or in XML,
    /// the table's key for it (see ``XMLPlistKeys``).
    private func key(for name: Name, in table: Int) -> String {
        xml == nil ? name.qualified : xmlKeys[table].key(for: name, writtenAs: name.qualified)
    }

    func write(_ batch: RecordBatch) throws {
        for index in 0..<batch.count { try write(batch.record(at: index)) }
        try output.flushStream()
    }

    func renameTable(_ old: String, to new: String) throws {
        tables.rename(old, to: new)
    }

    func flush() throws {
        try output.flushStream()
    }

    /// Assembles the property list and renames it into place.
    func finish() throws {
        if let xml { try finishXML(xml) } else if let binary { try finishBinary(binary) }
    }

    private func finishXML(_ xml: XMLPlistWriter) throws {
        let file = try output.writer()
        if output.streams {
            try file.write(tables.tables.isEmpty ? XMLPlistWriter.header + "<array/>\n" : "</array>\n")
            return try file.write(XMLPlistWriter.footer)
        }
        try file.write(XMLPlistWriter.header)
        let several = tables.tables.count > 1
        if several { try file.write("<dict>\n") }
        // Table names differ, but not always as XML carries them (see ``XMLPlistKeys``).
        var tableKeys = DistinctNames(comparing: .bytes)
        for table in tables.tables {
            // Records were spooled indented for a root array; with several tables the
            // root dictionary's keys and arrays stay at column 0 (whitespace is not
            // significant in a plist).
            if several {
                xml.output = file
                xml.depth = 0
                try xml.key(tableKeys.claim(XMLPlistWriter.readBack(table.name)))
            }
            if table.recordCount == 0 {
                try file.write("<array/>\n")
                continue
            }
            try file.write("<array>\n")
            try table.spool!.reader().copyRest(to: file)
            try file.write("</array>\n")
        }
        if tables.tables.isEmpty { try file.write("<array/>\n") }
        if several { try file.write("</dict>\n") }
        try file.write(XMLPlistWriter.footer)
    }

    private func finishBinary(_ binary: BinaryPlistWriter) throws {
        var arrays: [BinaryPlistWriter.Ref] = []
        for table in tables.tables {
            arrays.append(try binary.writeArray(count: table.recordCount, refs: table.spool!))
        }
        let top: BinaryPlistWriter.Ref
        switch arrays.count {
        case 0:
            try binary.beginArray()
            try binary.endArray()
            top = binary.lastRef
        case 1:
            top = arrays[0]
        default:
            var keys: [BinaryPlistWriter.Ref] = []
            for table in tables.tables {
                try binary.key(table.name)
                keys.append(binary.lastRef)
            }
            top = try binary.writeDictionary(keys: keys, values: arrays)
        }
        try binary.finish(top: top, into: output)
    }
}

import IngestCore
/// Writes records as JSON, streamed, with flat memory.
///
/// - ``Format/array`` (`--to json`): an array of objects, one per record, in order;
///   when records go to several tables, an object of such arrays keyed by table name
///   (tables in the order first met; each table's records are spooled beside the
///   output and the file is assembled at ``finish()``).
/// - ``Format/lines`` (`--to ndjson`): one object per line, written as records arrive
///   (the table is not recorded).
///
/// To an output that ``OutputFile/streams``, the array's records are written as they
/// arrive too, and what is written is flushed after every batch and at every
/// ``flush()``: the bytes are those of the file.
///
/// Numbers are written as numbers (exactly their text), booleans and `null` as
/// themselves, nested data (``FieldValue/json(_:_:)``) as the JSON it already is —
/// never as a string; binary data (``FieldValue/data(_:)``) as a base64 string.
/// Field order is the record's.
final class JSONRecordSink: FileRecordSink {
    enum Format: Sendable {
        /// One JSON document: an array of records, or an object of arrays by table.
        case array
        /// Newline-delimited JSON: one record object per line.
        case lines
    }

    let format: Format
    private let output: OutputFile
    private let tables: TableSpools
    private var text = ""

    init(output: OutputFile, format: Format) throws {
        self.output = output
        self.format = format
        tables = TableSpools(output: output)
    }

    func write(_ record: IngestRecord) throws {
        text.removeAll(keepingCapacity: true)
        let target: BufferedFileWriter
        switch format {
        case .lines:
            target = try output.writer()
        case .array:
            let table = try tables.index(of: record.table)
            target = tables.writer(at: table)
            if tables.tables[table].recordCount > 0 { text += ",\n" } else if output.streams { text += "[\n" }
            tables.countRecord(at: table)
        }
        Self.append(record, to: &text)
        if format == .lines { text += "\n" }
        try target.write(text)
    }

    /// `record` as one compact JSON object.
    static func append(_ record: IngestRecord, to text: inout String) {
        text += "{"
        for (index, field) in record.fields.enumerated() {
            if index > 0 { text += "," }
            JSONValue.writeString(field.name.qualified, to: &text)
            text += ":"
            switch field.value {
            case .null: text += "null"
            case .bool(let flag): text += flag ? "true" : "false"
            case .number(let number): text += number.text
            case .text(let string): JSONValue.writeString(string, to: &text)
            case .json(let json, _): text += json
            case .data(let bytes):
                // Base64 needs no escaping.
                text += "\""
                text += Base64.encode(bytes)
                text += "\""
            }
        }
        text += "}"
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

    /// Completes the document; the output commits it.
    func finish() throws {
        let file = try output.writer()
        if format == .array, output.streams {
            try file.write(tables.tables.isEmpty ? "[]\n" : "\n]\n")
        } else if format == .array {
            let several = tables.tables.count > 1
            if several { try file.write("{") }
            for (index, table) in tables.tables.enumerated() {
                if several {
                    var key = index > 0 ? ",\n" : "\n"
                    JSONValue.writeString(table.name, to: &key)
                    try file.write(key + ": ")
                }
                try file.write("[\n")
                try table.spool!.reader().copyRest(to: file)
                try file.write("\n]")
            }
            if tables.tables.isEmpty { try file.write("[]") }
            try file.write(several ? "\n}\n" : "\n")
        }
    }
}

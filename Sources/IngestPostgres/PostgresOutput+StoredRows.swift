import IngestCore
import PostgresNIO

/// Reading back what a database holds, through a connection of its own (opened on the
/// first read and kept for the next ones), so the output's import and its transaction
/// are left alone.
extension PostgresOutput: StoredRowReader {
    /// The values of `columns` in the rows of `table` that match, as committed in the
    /// database (see ``/IngestCore/StoredRowReader``). No rows when the table does not
    /// exist in the schema new tables go to (the first schema of the `search_path`),
    /// as a table an import has created but not committed yet does not for others.
    ///
    /// Values come back as the output wrote them: `bigint` (and `integer`,
    /// `smallint`) as integers, `double precision` as reals, `boolean` as
    /// ``/IngestCore/FieldValue/bool(_:)``, `bytea` as data, `json` and `jsonb` as
    /// ``/IngestCore/FieldValue/json(_:_:)``, `date` as `2026-11-23` and `timestamptz`
    /// as `2026-11-23T02:00:00Z` (UTC, RFC 3339, the fraction only when there is one),
    /// every other type as its text. A value of `matching` is compared with the column
    /// as PostgreSQL converts its text to the column's type; `.null` matches NULL.
    ///
    /// Every name is a quoted identifier and values are bound parameters, never
    /// spliced into the statement. A read waits for another session's lock on the
    /// table (a replacement being committed) at most ``lockTimeout`` seconds.
    ///
    /// - Throws: `.temporary` (exit 75) when the server cannot be reached or the
    ///   connection is lost (a session kept from an earlier read that turns out
    ///   closed is replaced, and the read tried once more); `.io` for a column the
    ///   table does not have; `.output` when the name is a view or another relation
    ///   that is not a table.
    public func storedRows(in table: String, columns: [String], matching: [String: FieldValue]) throws -> [[FieldValue]]
    {
        let reused = storedRowReader != nil
        do {
            return try openReader().rows(in: table, columns: columns, matching: matching)
        } catch let error as IngestError where error.kind == .temporary {
            closeReader()
            // A session kept from an earlier read may have been closed since (the server
            // restarted between two feeds): a read changes nothing, so it is tried once more.
            guard reused, error.reason == .serverUnavailable(.connectionLost) else { throw error }
            return try openReader().rows(in: table, columns: columns, matching: matching)
        }
    }

    /// The session stored rows are read through, connected on first use.
    private func openReader() throws -> StoredRowQuery {
        if let reader = storedRowReader { return reader }
        let session = PostgresSession(target: settings.description, pipelineDepth: 0, lockTimeout: lockTimeout)
        try session.connect(settings, warnings: &warnings)
        let milliseconds = max(1, Int((min(max(lockTimeout, 0), 86_400) * 1000).rounded()))
        // Reads only: whatever a caller asks, this session never writes.
        for setting in ["lock_timeout = \(milliseconds)", "default_transaction_read_only = on"] {
            try session.execute("SET \(setting)", doing: "cannot set up a reading session")
        }
        let reader = StoredRowQuery(
            catalog: PostgresCatalog(session: session, schema: try PostgresCatalog.currentSchema(session)))
        storedRowReader = reader
        return reader
    }

    /// Closes the reading session, if one is open; the next read connects again.
    func closeReader() {
        storedRowReader?.catalog.session.close()
        storedRowReader = nil
    }
}

/// One `SELECT` of stored rows, built from the table's columns as the server
/// describes them: each column read as text in a form that converts back into the
/// ``/IngestCore/FieldValue`` the output wrote.
struct StoredRowQuery {
    let catalog: PostgresCatalog

    func rows(in table: String, columns: [String], matching: [String: FieldValue]) throws -> [[FieldValue]] {
        guard try catalog.tableExists(table) else { return [] }
        let declared = Dictionary(try catalog.columns(of: table).map { ($0.name, $0.type) }) { first, _ in first }
        func type(of column: String) throws -> PostgresColumnType {
            guard let type = declared[column] else {
                throw IngestError(.io, "the table \(catalog.schema).\(table) has no column \(column)")
            }
            return type
        }
        let types = try columns.map(type(of:))
        var sql =
            "SELECT "
            + zip(columns, types).map { Self.selected(PostgresIdentifier.quoted($0), type: $1) }.joined(separator: ", ")
        sql += " FROM " + PostgresIdentifier.qualified(catalog.schema, table)
        var bindings = PostgresBindings(capacity: matching.count)
        var conditions: [String] = []
        for (column, value) in matching.sorted(by: { $0.key < $1.key }) {
            let columnType = try type(of: column)
            if let text = Self.text(of: value, for: columnType) { bindings.append(text) } else { bindings.appendNull() }
            conditions.append(
                "\(PostgresIdentifier.quoted(column)) IS NOT DISTINCT FROM $\(conditions.count + 1)::\(columnType.sql)")
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        let query = PostgresQuery(unsafeSQL: sql, binds: bindings)
        let texts = try catalog.session.run(doing: "cannot read \(table)") { connection -> [[String?]] in
            var rows: [[String?]] = []
            for try await row in try await connection.query(query, logger: PostgresSession.logger) {
                rows.append(try row.map { try $0.decode(String?.self) })
            }
            return rows
        }
        return texts.map { row in zip(row, types).map { Self.value(of: $0, type: $1) } }
    }

    /// The expression that reads `column` (quoted) as text in the form ``value(of:type:)`` reads.
    static func selected(_ column: String, type: PostgresColumnType) -> String {
        switch type {
        case .bytea: "encode(\(column), 'hex')"
        case .date: "CASE WHEN isfinite(\(column)) THEN to_char(\(column), 'YYYY-MM-DD') ELSE \(column)::text END"
        case .timestamptz:
            // RFC 3339 in UTC; the fraction of a second only when there is one.
            """
            CASE WHEN isfinite(\(column)) THEN regexp_replace(to_char(\(column) AT TIME ZONE 'UTC', \
            'YYYY-MM-DD"T"HH24:MI:SS.US'), '\\.?0+$', '') || 'Z' ELSE \(column)::text END
            """
        default: "\(column)::text"
        }
    }

    /// A column's text as the value the output wrote.
    static func value(of text: String?, type: PostgresColumnType) -> FieldValue {
        guard let text else { return .null }
        switch type {
        case .bigint:
            return Int64(text).map(FieldValue.integer) ?? .text(text)
        case .double:
            return Double(text).map(FieldValue.storedReal) ?? .text(text)
        case .boolean:
            return .bool(text == "true")
        case .bytea:
            return hexBytes(text).map(FieldValue.data) ?? .text(text)
        case .jsonb:
            return .json(text, text.first == "[" ? .array : .object)
        case .untyped, .text, .date, .timestamptz, .existing:
            return .text(text)
        }
    }

    /// A value to compare with a column of `type`, as text PostgreSQL converts to the
    /// type; `nil` for NULL.
    static func text(of value: FieldValue, for type: PostgresColumnType) -> String? {
        switch value {
        case .bool(let flag) where type == .bigint || type == .double: flag ? "1" : "0"
        case .data(let bytes) where type == .bytea:
            "\\x" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        default: value.text
        }
    }

    /// `encode(…, 'hex')`'s text as bytes.
    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

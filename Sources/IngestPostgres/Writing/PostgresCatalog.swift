import IngestCore
import PostgresNIO

/// What the PostgreSQL output asks the server about tables, and the locks it takes,
/// all within the import's transaction and in one schema: the first schema of the
/// `search_path` that exists (`current_schema()`), where `CREATE TABLE` puts a table.
/// Every table is named with its schema, so no other schema's table of the same name
/// is ever touched.
struct PostgresCatalog {
    let session: PostgresSession
    let schema: String

    /// The schema unqualified new tables go to.
    static func currentSchema(_ session: PostgresSession) throws -> String {
        let schema = try session.run(doing: "cannot ask PostgreSQL for the current schema") { connection -> String? in
            var schema: String?
            for try await name in try await connection.query(
                "SELECT current_schema()::text", logger: PostgresSession.logger
            )
            .decode(String?.self) {
                schema = name
            }
            return schema
        }
        guard let schema else {
            throw IngestError(
                .output,
                "PostgreSQL has no schema to create tables in: no schema on the search_path exists (SET search_path, or CREATE SCHEMA)"
            )
        }
        return schema
    }

    /// What `name` is in the schema: `nil` when nothing has the name, else
    /// pg_class's relkind (`r` a table, `p` a partitioned table, `v` a view…).
    func relationKind(of name: String) throws -> String? {
        let schema = self.schema
        return try session.run(doing: "cannot look up the table \(name)") { connection -> String? in
            let rows = try await connection.query(
                """
                SELECT c.relkind::text FROM pg_catalog.pg_class c
                JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = \(schema) AND c.relname = \(name)
                """, logger: PostgresSession.logger)
            var relationKind: String?
            for try await kind in rows.decode(String.self) { relationKind = kind }
            return relationKind
        }
    }

    /// Whether `name` is a table to write into; throws when the name is taken by
    /// something else (a view, a sequence, an index).
    func tableExists(_ name: String) throws -> Bool {
        guard let kind = try relationKind(of: name) else { return false }
        guard kind == "r" || kind == "p" else {
            let what =
                ["v": "a view", "m": "a materialized view", "S": "a sequence", "i": "an index", "f": "a foreign table"][
                    kind] ?? "not a table"
            throw IngestError(.output, "\(schema).\(name) is \(what), not a table; the import cannot write into it")
        }
        return true
    }

    /// Whether the schema holds an index called `name`.
    func indexExists(_ name: String) throws -> Bool {
        try relationKind(of: name) == "i"
    }

    /// The columns of an existing table, in order, typed by `format_type()`.
    func columns(of name: String) throws -> [PostgresTable.Column] {
        let table = PostgresIdentifier.qualified(schema, name)
        let columns = try session.run(doing: "cannot read the columns of \(name)") { connection -> [String] in
            let rows = try await connection.query(
                """
                SELECT a.attname::text, pg_catalog.format_type(a.atttypid, a.atttypmod) FROM pg_catalog.pg_attribute a
                WHERE a.attrelid = \(table)::text::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
                """, logger: PostgresSession.logger)
            var columns: [String] = []
            for try await (column, type) in rows.decode((String, String).self) { columns += [column, type] }
            return columns
        }
        return stride(from: 0, to: columns.count, by: 2).map {
            PostgresTable.Column(name: columns[$0], type: PostgresColumnType(declared: columns[$0 + 1]), widens: false)
        }
    }

    /// The columns of an existing table's primary key, in order; empty for none.
    func primaryKey(of name: String) throws -> [String] {
        let table = PostgresIdentifier.qualified(schema, name)
        return try session.run(doing: "cannot read the primary key of \(name)") { connection -> [String] in
            let rows = try await connection.query(
                """
                SELECT a.attname::text FROM pg_catalog.pg_index i
                JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
                WHERE i.indrelid = \(table)::text::regclass AND i.indisprimary
                ORDER BY array_position(i.indkey::int2[], a.attnum)
                """, logger: PostgresSession.logger)
            var columns: [String] = []
            for try await column in rows.decode(String.self) { columns.append(column) }
            return columns
        }
    }

    /// Takes the import's advisory lock on each table name, in a fixed order (so two
    /// imports never wait for each other in a cycle), held until the transaction ends.
    /// Imports that replace or create a table, or create a missing one, take it: they
    /// run one after the other on the same table.
    func lock(_ names: [String]) throws {
        for key in Set(names.map(advisoryKey)).sorted() {
            _ = try advisoryLock("pg_advisory_xact_lock", key: key)
        }
    }

    /// Takes the lock on `name` if no other import holds it, without waiting; whether
    /// it did.
    func tryLock(_ name: String) throws -> Bool {
        try advisoryLock("pg_try_advisory_xact_lock", key: advisoryKey(name)) == true
    }

    /// Waits until no import holds the lock on `name` (one creating or replacing the
    /// table) and shares it, to the transaction's end, with other imports that append.
    func lockShared(_ name: String) throws {
        _ = try advisoryLock("pg_advisory_xact_lock_shared", key: advisoryKey(name))
    }

    /// Calls one of PostgreSQL's advisory lock functions. Its rows are read to the end:
    /// a lock wait that fails (`lock_timeout`, a deadlock) reports its error in them,
    /// after the query has started.
    private func advisoryLock(_ function: String, key: Int64) throws -> Bool? {
        try session.run(doing: "cannot take the lock on a table") { connection -> Bool? in
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT \(function)(\(key))::text"),
                logger: PostgresSession.logger)
            var taken: Bool?
            for try await result in rows.decode(String?.self) { taken = result == "t" }
            return taken
        }
    }

    /// The advisory lock key of a table: 64 bits of FNV-1a over `ingest`, the schema and
    /// the name, the same on every machine (so imports from many hosts agree).
    func advisoryKey(_ name: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array("ingest".utf8) + [0] + Array(schema.utf8) + [0] + Array(name.utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    /// Locks an existing table for the import's writes. `ROW EXCLUSIVE`, as any INSERT
    /// takes, lets other imports append at the same time and keeps the table from being
    /// dropped or altered under this one; an import that may add columns (`--alter`)
    /// takes `SHARE ROW EXCLUSIVE`, which such imports take one at a time, so two of
    /// them never deadlock over `ALTER TABLE`.
    func lockForWriting(_ name: String, mayAlter: Bool) throws {
        let mode = mayAlter ? "SHARE ROW EXCLUSIVE" : "ROW EXCLUSIVE"
        try session.execute(
            "LOCK TABLE \(PostgresIdentifier.qualified(schema, name)) IN \(mode) MODE",
            doing: "cannot lock the table \(name)")
    }

    /// After a table built as `temporaryName` took its final name: gives its indexes and
    /// constraints, named after the temporary name by PostgreSQL (`…_pkey`, `…_fkey`)
    /// or by the output, the final name instead.
    func renameIndexesAndConstraints(of name: String, from temporaryName: String) throws {
        let table = PostgresIdentifier.qualified(schema, name)
        let names = try session.run(doing: "cannot list the indexes of \(name)") { connection -> [String] in
            let rows = try await connection.query(
                """
                SELECT 'i' || c.relname::text FROM pg_catalog.pg_index x JOIN pg_catalog.pg_class c ON c.oid = x.indexrelid
                WHERE x.indrelid = \(table)::text::regclass
                UNION ALL
                SELECT 'c' || conname::text FROM pg_catalog.pg_constraint
                WHERE conrelid = \(table)::text::regclass AND contype NOT IN ('p', 'u', 'x')
                """, logger: PostgresSession.logger)
            var names: [String] = []
            for try await name in rows.decode(String.self) { names.append(name) }
            return names
        }
        for entry in names {
            let isIndex = entry.hasPrefix("i")
            let old = String(entry.dropFirst())
            guard old.hasPrefix(temporaryName) else { continue }
            let new = PostgresIdentifier.fitted(name + old.dropFirst(temporaryName.count))
            let sql =
                isIndex
                ? "ALTER INDEX \(PostgresIdentifier.qualified(schema, old)) RENAME TO \(PostgresIdentifier.quoted(new))"
                : "ALTER TABLE \(table) RENAME CONSTRAINT \(PostgresIdentifier.quoted(old)) TO \(PostgresIdentifier.quoted(new))"
            try session.execute(sql, doing: "cannot rename \(old) after its table \(name)")
        }
    }
}

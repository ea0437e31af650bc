import IngestCore

/// The most bytes one row may take in `COPY` text, checked as the sink encodes each
/// field.
///
/// PostgreSQL reads a `COPY` row into one buffer of at most 1 GB (`MaxAllocSize`),
/// so no longer row can be stored; and the sink encodes rows into a NIO
/// `ByteBuffer`, which traps past 4 GiB. Checked before each field is appended,
/// with the field's own size (which encoding never shrinks), a row stays under
/// 1 GB plus one field's encoding, far from 4 GiB; a longer one is refused as the
/// input's error (`.data`, exit 65) naming the field.
struct CopyRowLength {
    /// PostgreSQL's `MaxAllocSize`: 1 GB less one byte.
    static let postgresLimit = 0x3FFF_FFFF

    /// The most bytes a row may take.
    let limit: Int

    init(limit: Int = Self.postgresLimit) {
        self.limit = limit
    }

    /// Throws `.data` at `position` when a row of `rowBytes` so far, with `fieldBytes`
    /// more for `field` of `table`, would be longer than ``limit``.
    func check(rowBytes: Int, adding fieldBytes: Int, field: String, table: String, position: SourcePosition?) throws {
        guard fieldBytes > limit - rowBytes else { return }
        let (total, overflow) = rowBytes.addingReportingOverflow(fieldBytes)
        throw IngestError(
            .data,
            "field \(field) makes the row for table \(table) \(overflow ? "more than \(Int.max)" : "\(total)") bytes, more than PostgreSQL's limit of \(limit) bytes for one row",
            position: position)
    }
}

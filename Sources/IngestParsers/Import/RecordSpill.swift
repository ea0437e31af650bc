import IngestCore
import IngestPOSIX
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Batches of records set aside in an unnamed temporary file, in the order given,
/// and read back one at a time: how an input parsed ahead of its turn waits for the
/// writer without holding its records in memory (see ``RecordPipe``).
///
/// A batch goes to the file as the three runs of memory it is made of (its bytes,
/// its fields, its records), and comes back the same, in this process; what it
/// refers to (its tables, its fields' names) waits in the ``Stub``. One thread
/// writes (``write(_:)``) and one reads (``read(_:)``); a batch is read only after
/// its write returned, so the two never touch the same bytes. The file is made in
/// `$TMPDIR` (else `/tmp`) and unlinked at once: it goes when the spill does,
/// whatever ends the process.
final class RecordSpill: @unchecked Sendable {
    /// Where one batch is in the file, and what it refers to.
    struct Stub {
        let offset: Int
        let parts: RecordBatch.Parts
        /// Bytes the batch takes in the file.
        var count: Int { parts.byteCount + fieldBytes + entryBytes }
        var fieldBytes: Int { parts.fieldCount * MemoryLayout<RecordBatch.Field>.stride }
        var entryBytes: Int { parts.entryCount * MemoryLayout<RecordBatch.Entry>.stride }
    }

    private let descriptor: Int32
    private let displayName: String
    // Safety: written by the writing thread only.
    private var end = 0

    /// A new spill for records of `input` (named in errors), in a new temporary file.
    init(holding input: String) throws {
        let (_, path, descriptor) = try InputFile.makeTemporaryFile(
            in: nil, holding: "records of \(input)", prefix: "records")
        unlink(path)
        self.descriptor = descriptor
        displayName = "a temporary file holding records of \(input)"
    }

    deinit { close(descriptor) }

    /// Appends `batch` to the file; the stub reads it back.
    func write(_ batch: RecordBatch) throws -> Stub {
        let offset = end
        let stub = try batch.withParts { parts, bytes, fields, entries in
            var at = offset
            for region in [bytes, fields, entries] {
                try writeAll(region, at: at)
                at += region.count
            }
            return Stub(offset: offset, parts: parts)
        }
        end += stub.count
        return stub
    }

    /// The batch `stub` names, read back as it was written.
    func read(_ stub: Stub) throws -> RecordBatch {
        try RecordBatch(parts: stub.parts) { region, memory in
            switch region {
            case .bytes: try readAll(memory, at: stub.offset)
            case .fields: try readAll(memory, at: stub.offset + stub.parts.byteCount)
            case .entries: try readAll(memory, at: stub.offset + stub.parts.byteCount + stub.fieldBytes)
            }
        }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                throw IngestError(.io, "cannot write to \(displayName): \(POSIX.lastError)")
            }
            done += count
        }
    }

    private func readAll(_ memory: UnsafeMutableRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < memory.count {
            let count = pread(descriptor, memory.baseAddress! + done, memory.count - done, off_t(offset + done))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw IngestError(
                    .io, "cannot read back \(displayName): \(count < 0 ? POSIX.lastError : "it ended early")")
            }
            done += count
        }
    }
}

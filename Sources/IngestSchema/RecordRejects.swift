import IngestCore
import IngestPOSIX
import Foundation

/// Why one record does not fit its schema.
public struct RecordRejection: Sendable, Equatable {
    /// The entity whose record it is (its schema name).
    public var entity: String
    /// The field at fault (its schema name).
    public var field: String?
    /// What is wrong: `"abc" is not an integer (64-bit)`, `missing required field…`.
    public var reason: String
    /// Where the offending value is (for a missing field: where the record starts).
    public var position: SourcePosition
    /// The offending value as written, cut to 200 bytes.
    public var value: String?
}

/// What happens to records that do not fit: the run stops at the first one
/// (``Mode/fail``, the default, and nothing is written), or they are skipped
/// (``Mode/skip``), counted, and written one JSON object per line to a rejects file:
///
/// ```json
/// {"file":"people.xml","line":12,"column":5,"record_line":9,"entity":"person","field":"id","reason":"\"x7\" is not an integer (64-bit)","value":"x7"}
/// ```
///
/// With ``maxErrors``, the run fails once that many records have been rejected.
/// The rejects file follows the rules of an output: an existing file is refused
/// unless `replace`, and it is written beside its target and put in place by
/// ``finish()`` atomically (a program may call it when the run fails too, so the
/// reasons are there to read) or given up by ``discard()``.
///
/// Safe to share between threads (a mapping shared by parsers on several threads
/// reports into one): every call takes a lock. Read ``count`` once the run is over.
public final class RecordRejects: @unchecked Sendable {
    /// What a record that does not fit does to the run.
    public enum Mode: String, Sendable, CaseIterable {
        /// `fail`: the first such record stops the run (nothing is written); `skip`:
        /// such records are left out, counted and, with a file, written to it.
        case fail, skip
    }

    /// Whether records that do not fit stop the run or are skipped.
    public let mode: Mode
    /// With ``Mode/skip``: the number of rejects that fails the run; `nil` for no limit.
    public let maxErrors: Int?
    /// Records rejected so far.
    public var count: Int { lock.withLock { rejected } }
    /// The input being read, for the rejects file's `file` member.
    public var inputName: String {
        get { lock.withLock { currentInput } }
        set { lock.withLock { currentInput = newValue } }
    }
    private let file: AtomicFile?
    /// The rejects file as named, for errors; `nil` when rejects are only counted.
    private let path: String?
    private let replace: Bool
    // Safety: `lock` guards the three members below, the only mutable state.
    private let lock = NSLock()
    private var rejected = 0
    private var currentInput = ""
    private var writer: FileHandle?

    /// Rejects that are only counted (``Mode/skip``), or that fail the run (``Mode/fail``).
    public init(mode: Mode = .fail, maxErrors: Int? = nil) {
        self.mode = mode
        self.maxErrors = maxErrors
        file = nil
        path = nil
        replace = false
    }

    /// Rejects written to the NDJSON file at `path`, built beside it and renamed into
    /// place by ``finish()``. An existing file is refused (`.output`) unless `replace`;
    /// a symbolic link to one replaces the file it names. A path that is not a regular
    /// file (`/dev/stderr`, a FIFO) is written through, each reject as it comes.
    public init(mode: Mode, maxErrors: Int? = nil, path: String, replace: Bool) throws {
        self.mode = mode
        self.maxErrors = maxErrors
        self.replace = replace
        self.path = path
        let target = OutputTarget(path)
        guard let filePath = target.filePath else {
            file = nil
            writer = target == .standardOutput ? FileHandle.standardOutput : FileHandle(forWritingAtPath: path)
            if writer == nil { throw IngestError(.output, "cannot open the rejects file for writing", file: path) }
            return
        }
        if FileStatus.exists(filePath), !replace {
            throw IngestError(.output, "already exists", file: path, reason: .outputExists(appendable: false))
        }
        let file = try AtomicFile(target: filePath)
        self.file = file
        writer = FileHandle(forWritingAtPath: file.temporaryPath)
        if writer == nil { throw IngestError(.output, "cannot create the rejects file", file: path) }
    }

    /// Records a rejection; throws when the run must stop.
    func reject(_ rejection: RecordRejection, recordStart: SourcePosition) throws {
        try lock.withLock { try rejectLocked(rejection, recordStart: recordStart) }
    }

    private func rejectLocked(_ rejection: RecordRejection, recordStart: SourcePosition) throws {
        let what = "\(rejection.entity)\(rejection.field.map { " field \"\($0)\"" } ?? ""): \(rejection.reason)"
        guard mode == .skip else {
            throw IngestError(.data, what, position: rejection.position, reason: .recordRejected)
        }
        rejected += 1
        let count = rejected
        if let writer {
            var members: [(key: String, value: JSONValue)] = [
                ("file", .string(currentInput)),
                ("line", .number(String(rejection.position.line))),
                ("column", .number(String(rejection.position.column))),
                ("record_line", .number(String(recordStart.line))),
                ("entity", .string(rejection.entity))
            ]
            if let field = rejection.field { members.append(("field", .string(field))) }
            members.append(("reason", .string(rejection.reason)))
            if let value = rejection.value { members.append(("value", .string(value))) }
            var line: [UInt8] = []
            JSONValue.object(members).write(into: &line)
            line.append(0x0A)
            do {
                try writer.write(contentsOf: line)
            } catch {
                throw IngestError(.io, "cannot write the rejects file: \(error.localizedDescription)", file: path)
            }
        }
        if let maxErrors, count >= maxErrors {
            throw IngestError(
                .data, "\(count) record\(count == 1 ? "" : "s") rejected, the most allowed; the last: \(what)",
                position: rejection.position, reason: .tooManyRejects(maxErrors))
        }
    }

    /// Puts the rejects file in place, atomically (an existing one is replaced only
    /// when the rejects were created with `replace`).
    public func finish() throws {
        try lock.withLock {
            guard let writer else { return }
            if writer !== FileHandle.standardOutput { try? writer.close() }
            self.writer = nil
            try file?.commit(replacing: replace)
        }
    }

    /// Gives the rejects file up: an existing file at the path stays as it was.
    public func discard() {
        lock.withLock {
            if let writer, writer !== FileHandle.standardOutput { try? writer.close() }
            writer = nil
            file?.discard()
        }
    }
}

import IngestCore
import Foundation

/// Turns inputs into records: the streaming ``Importer`` (a parser and a mapping),
/// or IngestTree's `XPathReader` (libxml2's tree and an XPath expression).
///
/// Its ``run(_:into:inputsAtOnce:progress:)`` is the one import loop every output is driven by.
public protocol RecordReader: Sendable {
    /// Reads `input` and writes its records to `sink`; `progress` hears how many
    /// bytes of the input have been read so far. Errors name the input.
    func read(_ input: InputFile, into sink: any RecordSink, progress: ((Int) -> Void)?) throws

    /// The parts `input` may be read in at once, up to `count`, each on a thread of
    /// its own, that give together what reading it whole gives (a big JSON Lines
    /// file, see ``/IngestCore/FilePiece``); `nil` to read it whole. Default: `nil`.
    func parts(of input: InputFile, atMost count: Int) throws -> [InputFile]?

    /// The parts `input` may be read in at once, given `threads` for it, of which
    /// `threadsBesideWriter` when a writer's thread shares the cores (`nil`: none
    /// does): a reader whose parse is slower than the writer may use them all (a big
    /// XML file). Default: ``parts(of:atMost:)`` with the threads beside a writer,
    /// and none without one.
    func parts(of input: InputFile, threads: Int, threadsBesideWriter: Int?) throws -> [InputFile]?
}

extension RecordReader {
    /// Every input is read whole.
    public func parts(of input: InputFile, atMost count: Int) throws -> [InputFile]? { nil }

    /// The parts ``parts(of:atMost:)`` gives for the threads beside a writer.
    public func parts(of input: InputFile, threads: Int, threadsBesideWriter: Int?) throws -> [InputFile]? {
        guard let threadsBesideWriter, threadsBesideWriter > 1 else { return nil }
        return try parts(of: input, atMost: threadsBesideWriter)
    }
}

/// How far an import has got, as ``RecordReader/run(_:into:inputsAtOnce:progress:)`` reports it
/// after each chunk of input.
public struct ImportProgress: Sendable {
    /// The input being read, as messages name it.
    public var input: String
    /// Bytes of that input read so far (of the file as stored: compressed bytes for
    /// a compressed input).
    public var bytesRead: Int
    /// Its size, when it is a regular file.
    public var totalBytes: Int?
    /// Records produced so far, over all inputs.
    public var records: Int
}

/// What an import did, for a summary line or a report.
public struct ImportSummary: Sendable {
    /// Records written, over all inputs.
    public var recordCount = 0
    /// The tables written, in the order first met, with the records each received.
    public var tables: [TableCount] = []
    /// Bytes read, over all inputs (as stored).
    public var bytesRead = 0
    /// The inputs, as messages name them, with the bytes read from each.
    public var inputs: [InputCount] = []

    /// One table an import wrote to.
    public struct TableCount: Sendable, Equatable {
        /// The table's name.
        public var name: String
        /// The records written to it, over all inputs.
        public var records: Int
    }

    /// One input an import read.
    public struct InputCount: Sendable, Equatable {
        /// The input as messages name it (its path, `<stdin>`).
        public var name: String
        /// The bytes read from it, as stored (compressed bytes for a compressed input).
        public var bytes: Int
    }

    /// An empty summary: nothing read, nothing written.
    public init() {}
}

extension RecordReader {
    /// The import: opens `output`, reads every input into it in order, and commits
    /// it; if anything fails — an input, the output, a record — the output is
    /// discarded and whatever it replaces stays as it was.
    ///
    /// When the output ``/IngestCore/Output/prefersWriterThread``, each input is parsed on a
    /// second thread while records are written on this one (see
    /// ``readConcurrently(_:into:progress:)``). `progress` is called on the parsing
    /// thread.
    ///
    /// With `inputsAtOnce` above 1 and more than one input, that many inputs are
    /// parsed at the same time, each on a thread of its own, while this thread writes
    /// them one after another: the output gets the same records in the same order as
    /// one at a time (tables, columns, rows and their order), sooner when cores are
    /// free. An input is begun only while fewer than `inputsAtOnce` are parsed and not
    /// yet written; one parsed ahead of its turn sets its records aside in a
    /// temporary file (in `$TMPDIR`, else `/tmp`; at most ``parallelSpillLimit`` bytes
    /// each, then it waits), so memory stays flat whatever the inputs' sizes. A
    /// mapping that reports into something shared in input order (a rejects file)
    /// should read one at a time.
    ///
    /// When `inputsAtOnce` is at least twice the inputs, an input this reader splits
    /// (``parts(of:threads:threadsBesideWriter:)``: a big XML or JSON Lines file) is
    /// read in parts the same way, up to `inputsAtOnce` divided by the inputs each
    /// (one fewer beside a writer's thread), with the same records, in
    /// the same order and at the same lines as read whole — also into an output
    /// without a writer's thread.
    @discardableResult
    public func run(
        _ inputs: [InputFile], into output: any Output, inputsAtOnce: Int = 1,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) throws -> ImportSummary {
        var summary = ImportSummary()
        try output.writeAndCommit { sink in
            let counter = CountingSink(forwardingTo: sink)
            func written(_ input: InputFile, bytes: Int) {
                summary.inputs.append(.init(name: input.displayName, bytes: bytes))
                summary.bytesRead += bytes
            }
            // Several at once: the inputs, and a big file in parts when each input has
            // two threads or more. A file's parts take one thread fewer, which the
            // writer keeps: parsing parts on every core would make the writer wait
            // for the cores it shares with them. Without a writer's thread, inputs
            // are read one at a time, and only a file split in parts on several.
            var units: [InputFile] = []
            var owners: [Int] = []
            if inputsAtOnce > 1 {
                let threadsEach = inputsAtOnce / max(inputs.count, 1)
                let besideWriter = output.prefersWriterThread ? (inputsAtOnce - 1) / max(inputs.count, 1) : nil
                for (owner, input) in inputs.enumerated() {
                    let parts =
                        try parts(of: input, threads: threadsEach, threadsBesideWriter: besideWriter) ?? [input]
                    units += parts
                    owners += Array(repeating: owner, count: parts.count)
                }
                if !output.prefersWriterThread, units.count == inputs.count { units = [] }
            }
            if units.count > 1 {
                let report: ((Int, Int, Int) -> Void)? = progress.map { progress in
                    { index, bytes, records in
                        let input = inputs[owners[index]]
                        progress(
                            ImportProgress(
                                input: input.displayName, bytesRead: (units[index].piece?.start ?? 0) + bytes,
                                totalBytes: input.storedSize, records: records))
                    }
                }
                try readInParallel(
                    units, jobs: inputsAtOnce, spillLimit: Self.parallelSpillLimit, into: counter, progress: report
                ) { index in
                    // A file read in parts is read to its end once its last part is.
                    let owner = owners[index]
                    guard index + 1 == units.count || owners[index + 1] != owner else { return }
                    let input = inputs[owner]
                    written(input, bytes: units[index].piece == nil ? input.bytesRead : input.storedSize ?? 0)
                }
            } else {
                for input in inputs {
                    let before = counter.recordCount
                    let report: ((Int, Int) -> Void)? = progress.map { progress in
                        { bytes, records in
                            progress(
                                ImportProgress(
                                    input: input.displayName, bytesRead: input.bytesRead,
                                    totalBytes: input.storedSize, records: before + records))
                        }
                    }
                    if output.prefersWriterThread {
                        try readConcurrently(input, into: counter, progress: report)
                    } else {
                        try read(input, into: counter) { bytes in report?(bytes, counter.recordCount - before) }
                    }
                    written(input, bytes: input.bytesRead)
                }
            }
            summary.recordCount = counter.recordCount
            summary.tables = counter.tables.map { .init(name: $0.name, records: $0.records) }
        }
        return summary
    }

    /// Reads `input` on a second thread while `sink` is written on this one, through
    /// a bounded pipe: on two cores, parsing and writing overlap. Records arrive in
    /// `sink` in document order; errors from either side stop both, and name the input.
    ///
    /// `progress` is called on the parsing thread with the bytes read and the records
    /// produced so far.
    public func readConcurrently(
        _ input: InputFile, into sink: any RecordSink,
        progress: ((_ bytes: Int, _ records: Int) -> Void)? = nil
    ) throws {
        do {
            try RecordPipe.overlap(into: sink) { pipe in
                let produced = CountingSink(forwardingTo: pipe)
                try read(input, into: produced) { bytes in progress?(bytes, produced.recordCount) }
            }
        } catch let error as IngestError {
            // The sink's errors name the input too, as the reader's do.
            throw error.inFile(input.displayName)
        }
    }
}

extension RecordReader {
    /// The bytes of records an input read by ``run(_:into:inputsAtOnce:progress:)``
    /// ahead of its turn may set aside on disk before it waits for the writer: 1 GiB.
    public static var parallelSpillLimit: Int { 1 << 30 }
}

/// Hands a value to another thread that the compiler cannot prove safe to share;
/// the caller guarantees only one thread uses it at a time.
package struct UncheckedBox<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}

/// Where an import's records end up — a SQLite database, a property list, a keyed
/// archive, JSON — written all or nothing:
///
/// 1. ``open()`` checks the target and prepares what the records will go into (a
///    temporary file beside the target, a connection); nothing visible changes yet.
/// 2. ``write(_:)`` hands the import the ``RecordSink`` records go to, for as long as
///    its body runs; the body is the import (see IngestParsers' `RecordReader.run(_:into:inputsAtOnce:progress:)`).
/// 3. ``commit()`` makes the new content visible at once: a file is renamed over its
///    target, so a reader sees the old file or the new one, never a torn one.
/// 4. ``discard()``, after any failure, removes what was prepared: the previous
///    content stays exactly as it was.
///
/// An output that writes in place — a database `append` — writes in one transaction
/// that ``write(_:)`` commits when its body returns and rolls back when it throws.
///
/// ```swift
/// let output = try SQLiteOutput(path: "folks.db", mode: .replace)
/// let summary = try Importer().run([InputFile(path: "folks.xml")], into: output)
/// print(summary.recordCount)   // 3
/// ```
public protocol Output: AnyObject {
    /// The name messages give the output: its path, `<stdout>`.
    var displayName: String { get }

    /// Prepares the output; throws (`.output`, exit 73) when the target cannot be
    /// written, e.g. it exists and may not be replaced.
    func open() throws

    /// Runs `body` with the sink records go to, then completes what was written
    /// (trailers, indexes, the transaction). If `body` throws, the error is rethrown
    /// and nothing is completed.
    func write(_ body: (any RecordSink) throws -> Void) throws

    /// Makes what ``Output/write(_:)`` wrote visible, atomically.
    func commit() throws

    /// Gives up: the target stays as it was. Safe to call at any point, and more
    /// than once.
    func discard()

    /// Whether records should be written on a thread of their own while the next
    /// ones are parsed. Default: `true`; an output that does little per record says
    /// `false`, and the import runs on one thread.
    var prefersWriterThread: Bool { get }

    /// The temporary files that earlier runs, killed before they could clean up, had
    /// left beside the target and that ``open()`` removed (only files of processes
    /// that are gone): for a program to report. Default: none.
    var removedTemporaryFiles: [String] { get }

    /// What the output has to tell a person that did not stop it (a password file it
    /// ignored), in its own words; worth showing also when the run failed. Default: none.
    var warnings: [String] { get }

    /// The columns this output added to tables that existed before it was opened
    /// (appending records with fields a table had no column for), by table, in the
    /// order added. Default: none.
    var columnsAddedToExistingTables: [(table: String, columns: [String])] { get }

    /// Called by ``open()`` once, when another run holds the target's lock and this
    /// one starts waiting for it, with the holder's process id when known: for a
    /// program to say why nothing seems to happen. Default: not offered (never called).
    var whileWaitingForLock: ((_ holder: Int32?) -> Void)? { get set }

    /// How long ``open()`` waited for another run's lock, in seconds: time that was
    /// not spent on the import. Default: 0.
    var secondsWaitedForLock: Double { get }
}

extension Output {
    /// `true`: records are written on a thread of their own while the next are parsed.
    public var prefersWriterThread: Bool { true }
    /// None: an output that builds no temporary files beside its target cleans none.
    public var removedTemporaryFiles: [String] { [] }
    /// None.
    public var warnings: [String] { [] }
    /// None: an output that adds no columns to existing tables.
    public var columnsAddedToExistingTables: [(table: String, columns: [String])] { [] }
    /// Not offered: an output that takes no lock never waits for one.
    public var whileWaitingForLock: ((_ holder: Int32?) -> Void)? {
        get { nil }
        set {}
    }
    /// 0: an output that takes no lock never waits for one.
    public var secondsWaitedForLock: Double { 0 }

    /// The four steps in one call: opens the output, writes it with `body`, commits
    /// it — or, if anything throws, discards it and rethrows.
    ///
    /// ```swift
    /// try SQLiteOutput(path: "people.db", mode: .replace).writeAndCommit { sink in
    ///     try writeRecords(people, as: "people", to: sink)
    /// }
    /// ```
    public func writeAndCommit(_ body: (any RecordSink) throws -> Void) throws {
        try open()
        do {
            try write(body)
            try commit()
        } catch {
            discard()
            throw error
        }
    }
}

/// An output that keeps nothing: an import into it parses and maps every input and
/// counts the records, which is what a dry run is.
public final class DiscardingOutput: Output, RecordSink {
    /// An output that keeps nothing.
    public init() {}
    /// `"nothing"`.
    public var displayName: String { "nothing" }
    /// `false`: dropping a record costs nothing, so a writer thread would only add work.
    public var prefersWriterThread: Bool { false }
    /// Does nothing: there is no target to check or prepare.
    public func open() {}
    /// Runs `body` with this output as the sink; rethrows what `body` throws.
    public func write(_ body: (any RecordSink) throws -> Void) throws { try body(self) }
    /// Does nothing: nothing was written.
    public func commit() {}
    /// Does nothing: nothing was prepared.
    public func discard() {}
    /// Drops the record.
    public func write(_ record: IngestRecord) {}
    /// Drops the batch without materialising its records.
    public func write(_ batch: RecordBatch) {}
    /// Does nothing: there are no tables to rename.
    public func renameTable(_ old: String, to new: String) {}
}

import ArgumentParser
import IngestKit
import Logging

/// The outputs that are files of bytes: property lists, keyed archives, JSON.
extension IngestCommand {
    enum PlistFormat: String, ExpressibleByArgument, CaseIterable {
        case xml, binary
    }

    func validateFileOutputOptions() throws {
        if append && to != .db {
            throw ValidationError("--append adds to a database; with --to \(to.rawValue) use --replace to rebuild the file.")
        }
        if alter && to != .db {
            throw ValidationError("--alter adds columns to the tables of a database; --to \(to.rawValue) has none.")
        }
        if plistFormat != nil && to != .plist && to != .archive {
            throw ValidationError("--plist-format applies to --to plist and --to archive only.")
        }
        if let className {
            guard to == .archive else { throw ValidationError("--class names the objects of --to archive only.") }
            guard !className.isEmpty, !className.hasPrefix("$") else {
                throw ValidationError("--class needs a class name such as Person.")
            }
        }
    }

    /// Writes `job` into a file output of kind `kind` at `path`, atomically.
    func runFileOutput(_ job: Job, to path: String, importer: Importer, logger: Logger) throws -> CountingSink {
        let output = try FileOutput(path: path, replace: replace)
        let sink: any RecordSink
        switch to {
        case .plist:
            sink = try PlistSink(output: output, format: plistFormat == .binary ? .binary : .xml)
        case .archive:
            sink = try KeyedArchiveSink(output: output, format: plistFormat == .xml ? .xml : .binary, className: className,
                                        classNames: importer.options.schema?.archiveClasses ?? [:])
        case .json:
            sink = try JSONRecordSink(output: output, format: .array)
        case .ndjson:
            sink = try JSONRecordSink(output: output, format: .lines)
        case .db:
            preconditionFailure("databases are written by SQLiteOutput")
        }
        let counter = CountingSink(forwardingTo: sink)
        do {
            try readAll(job, importer: importer, output: path, into: counter, logger: logger)
            try counter.finish()
        } catch {
            output.discard()
            throw error
        }
        logger.info("wrote \(path)")
        return counter
    }
}

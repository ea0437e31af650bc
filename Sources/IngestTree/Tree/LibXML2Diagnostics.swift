import IngestCore
import IngestParsers
import CLibXML2

/// What libxml2 reported during one call: its errors, structured.
///
/// libxml2 prints its complaints on standard error unless told otherwise, and keeps
/// the handler that receives them per thread. ``capturing(_:)`` points every report
/// of the calling thread — parser, I/O, XPath and schema validation alike — at this
/// object for the length of one call and then restores the previous handlers, so the
/// tree and the validators never print and never disturb another user of libxml2.
final class LibXML2Diagnostics {
    /// One report, copied out of libxml2's `xmlError`.
    struct Report {
        /// `XML_ERR_WARNING` (1), `XML_ERR_ERROR` (2) or `XML_ERR_FATAL` (3).
        var level: Int
        /// libxml2's `xmlParserErrors` code.
        var code: Int
        /// libxml2's `xmlErrorDomain`: parser, XPath, schemas, RELAX NG…
        var domain: Int
        /// The message without its trailing newline.
        var message: String
        /// 1-based line, 0 when unknown.
        var line: Int
        /// 1-based column, 0 when unknown (validity errors carry none).
        var column: Int
        /// XPath: the offset of the error in the expression.
        var offset: Int

        var isError: Bool { level >= Int(XML_ERR_ERROR.rawValue) }

        /// Where it happened, for an ``IngestError``; `nil` without a line.
        var position: SourcePosition? {
            line > 0 ? SourcePosition(line: line, column: column, byteOffset: 0) : nil
        }
    }

    /// The first ``keep`` errors, in the order they came.
    private(set) var errors: [Report] = []
    /// How many errors came, kept or not.
    private(set) var errorCount = 0
    /// How many errors were not kept.
    private(set) var dropped = 0
    /// The most errors kept: a document can hold millions of problems.
    let keep: Int

    init(keep: Int = 1_000) {
        self.keep = keep
    }

    /// Runs `body` with every libxml2 report of this thread coming here.
    ///
    /// Safety: libxml2's error handlers are per thread; the one pointing at this
    /// (unretained) object is in place only while `body` runs, and
    /// `withExtendedLifetime` keeps the object alive that long.
    func capturing<T>(_ body: () throws -> T) rethrows -> T {
        let saved = ingest_xml_capture_errors(Self.handler, Unmanaged.passUnretained(self).toOpaque())
        defer { ingest_xml_restore_errors(saved) }
        return try withExtendedLifetime(self) { try body() }
    }

    /// Forgets every report so far.
    func removeAll() {
        errors.removeAll()
        errorCount = 0
        dropped = 0
    }

    /// Adds a report that did not come from libxml2 (a refusal of ours). Warnings
    /// are not kept: nothing ingest does depends on them.
    func add(_ report: Report) {
        guard report.isError else { return }
        errorCount += 1
        if errors.count < keep { errors.append(report) } else { dropped += 1 }
    }

    private static let handler: xmlStructuredErrorFunc = { context, error in
        guard let context, let error else { return }
        let diagnostics = Unmanaged<LibXML2Diagnostics>.fromOpaque(context).takeUnretainedValue()
        let e = error.pointee
        var message = e.message.map { String(cString: $0) } ?? "libxml2 error \(e.code)"
        while message.last?.isNewline == true || message.last == " " { message.removeLast() }
        // An entity only unread declarations may declare: the same words as the streaming parsers.
        if let refusal = UndeclaredEntity.message(for: e) { message = refusal }
        // libxml2 makes a refused network load a warning; ingest makes it an error.
        let refusedNetwork = e.code == Int32(XML_IO_NETWORK_ATTEMPT.rawValue)
        let level = refusedNetwork ? max(Int(e.level.rawValue), Int(XML_ERR_ERROR.rawValue)) : Int(e.level.rawValue)
        diagnostics.add(
            Report(
                level: level, code: Int(e.code), domain: Int(e.domain),
                message: message, line: Int(e.line), column: Int(e.int2), offset: Int(e.int1)))
    }
}

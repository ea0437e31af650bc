import CExpat
import CLibXML2

/// A parser fed bytes as they arrive — from a socket, a decompressor, any
/// ``ByteSource`` — rather than one that reads an ``InputFile`` itself: Expat's own
/// shape (create, feed a chunk, finish). Events reach the receiver during
/// ``push(_:)`` and ``finish()``.
///
/// `package` for now: IngestFeeds needs it before the module cut gives the
/// parsers their public push API, which replaces this file.
package protocol PushParser: AnyObject {
    /// Parses the next piece of the document; it may end anywhere, even inside a
    /// character.
    func push(_ bytes: UnsafeRawBufferPointer) throws
    /// The document has ended: checks that it is complete.
    func finish() throws
}

/// ``ExpatParser`` as a ``PushParser``.
package final class ExpatPushParser: PushParser {
    private let session: ExpatSession
    private let displayName: String

    /// `encoding`, when given, overrides the document's own declaration (as an HTTP
    /// charset does, RFC 7303); Expat reads the names iconv knows, as for a declaration.
    package init(receiver: any ParseEventReceiver, encoding: String? = nil, displayName: String = "<memory>") {
        session = ExpatSession(receiver: receiver)
        self.displayName = displayName
        if let encoding { XML_SetEncoding(session.parser, encoding) }
    }

    package func push(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        try session.parse(UnsafeMutableRawBufferPointer(mutating: bytes), isFinal: false)
            .mapError { $0.inFile(displayName) }.get()
    }

    package func finish() throws {
        try session.parse(UnsafeMutableRawBufferPointer(start: nil, count: 0), isFinal: true)
            .mapError { $0.inFile(displayName) }.get()
    }
}

/// ``LibXML2Parser`` as a ``PushParser``, optionally in libxml2's recovering mode.
package final class LibXML2PushParser: PushParser {
    private let session: LibXML2Session
    private let displayName: String

    /// With `recovers`, errors that make the document malformed (an undeclared
    /// prefix, a bare `&`, a missing end tag) do not stop the parse: libxml2 repairs
    /// what it can and ``firstRecoveredError`` keeps the first. `encoding`, when
    /// given, overrides the document's own declaration.
    package init(receiver: any ParseEventReceiver, recovers: Bool = false, allowsHugeDocuments: Bool = false,
                 encoding: String? = nil, displayName: String = "<memory>") throws {
        session = try LibXML2Session(receiver: receiver, huge: allowsHugeDocuments, recovers: recovers)
        self.displayName = displayName
        if let encoding {
            guard let handler = xmlFindCharEncodingHandler(encoding) else {
                throw IngestError(.data, "cannot read the encoding \"\(encoding)\": libxml2 and iconv do not know it",
                                  file: displayName)
            }
            xmlCharEncCloseFunc(handler)
            // Resetting the context is libxml2's public way to give a push parser its
            // encoding; the session's hook and the options are put back after it.
            let context = session.context
            let options = context.pointee.options
            xmlCtxtResetPush(context, nil, 0, nil, encoding)
            context.pointee._private = Unmanaged.passUnretained(session).toOpaque()
            xmlCtxtUseOptions(context, options | Int32(XML_PARSE_IGNORE_ENC.rawValue))
        }
    }

    /// In recovering mode, the first error libxml2 recovered from; `nil` while the
    /// document is well-formed.
    package var firstRecoveredError: IngestError? { session.firstRecoveredError?.inFile(displayName) }

    package func push(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        try session.parse(bytes, isFinal: false).mapError { $0.inFile(displayName) }.get()
    }

    package func finish() throws {
        try session.parse(UnsafeRawBufferPointer(start: nil, count: 0), isFinal: true)
            .mapError { $0.inFile(displayName) }.get()
    }
}

import IngestCore
import CLibXML2

/// The errors libxml2 raises without a parser context while a chunk is pushed: a
/// byte the declared encoding does not define (`XML_I18N_CONV_FAILED`), the I/O
/// error that follows it, and whatever else its input layer reports. libxml2 sends
/// them to the thread's global handlers — by default, printed on standard error —
/// and then stops the parse, sometimes with the document still counted as
/// well-formed. Each push therefore routes the thread's handlers here for its
/// length (``withInputErrorsCaptured(_:)``): such an error becomes the parse's
/// failure, in ingest's words and at the position of the offending byte, and
/// nothing is printed.
extension LibXML2PushParser {
    /// Where the parser stood when a push began, to place an error raised during it.
    struct PushStart {
        var position: SourcePosition
        /// The parser's UTF-8 buffer and the index of its unparsed text in it.
        var buffer: OpaquePointer?
        var index: Int
    }

    /// Runs one `xmlParseChunk` with the thread's libxml2 error handlers pointed at
    /// this parser, then puts the previous handlers back.
    ///
    /// Safety: libxml2's error handlers are per thread, and the ones pointing at this
    /// (unretained) parser are in place only while `body` runs, a call on `self`.
    func withInputErrorsCaptured<T>(_ body: () -> T) -> T {
        pushStart = currentPushStart
        let saved = ingest_xml_capture_errors(Self.inputErrorHandler, Unmanaged.passUnretained(self).toOpaque())
        defer {
            ingest_xml_restore_errors(saved)
            pushStart = nil
        }
        return body()
    }

    private var currentPushStart: PushStart {
        guard let input = context.pointee.input, let buf = input.pointee.buf, let buffer = buf.pointee.buffer,
            let content = xmlBufContent(buffer), let cur = input.pointee.cur
        else {
            return PushStart(position: currentPosition, buffer: nil, index: 0)
        }
        return PushStart(position: currentPosition, buffer: buffer, index: cur - UnsafePointer(content))
    }

    private static let inputErrorHandler: xmlStructuredErrorFunc = { data, error in
        guard let data, let error else { return }
        Unmanaged<LibXML2PushParser>.fromOpaque(data).takeUnretainedValue().reportInputError(error.pointee)
    }

    /// A context-less libxml2 error: warnings are ignored, anything else stops the
    /// parse. libxml2 is in the middle of converting input here, so the parser is
    /// not stopped from inside the callback: ``parse(_:isFinal:)`` stops it after.
    private func reportInputError(_ error: xmlError) {
        guard failure == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var libxml2Message = error.message.map { String(cString: $0) } ?? "error \(error.code)"
        libxml2Message = libxml2Message.split(whereSeparator: \.isNewline).joined(separator: " ")
        let message: String
        if error.code == Int32(XML_I18N_CONV_FAILED.rawValue) {
            let name = context.pointee.encoding ?? context.pointee.input?.pointee.encoding
            let encoding = name.map { "\"\(String(cString: $0))\"" } ?? "of the document"
            let bytes =
                libxml2Message.range(of: "bytes ").map {
                    " (the input from there: \(libxml2Message[$0.upperBound...]))"
                } ?? ""
            message = "a byte sequence the declared encoding \(encoding) does not define\(bytes)"
        } else {
            message = "libxml2 could not read the input: \(libxml2Message)"
        }
        failure = IngestError(.data, message, position: convertedEnd ?? pushStart?.position ?? currentPosition)
    }

    /// The position just past the text libxml2 has converted so far: during a push
    /// that met an undefined byte, where that byte is. The unparsed text runs from
    /// where the parser stood when the push began to the end of its buffer; `nil`
    /// when the buffer is no longer the one the push began with (libxml2 replaces
    /// it when it switches to the declared encoding).
    private var convertedEnd: SourcePosition? {
        guard var start = pushStart, let input = context.pointee.input, let buf = input.pointee.buf,
            let buffer = buf.pointee.buffer, let content = xmlBufContent(buffer)
        else { return nil }
        if buffer != start.buffer {
            // libxml2 is switching to the declared encoding: the new buffer holds what
            // follows the parser's position, converted (the parser's pointers still
            // point into the old one and are not read).
            start = PushStart(
                position: SourcePosition(
                    line: Int(input.pointee.line), column: Int(input.pointee.col),
                    byteOffset: start.position.byteOffset),
                buffer: buffer, index: 0)
        }
        let used = Int(xmlBufUse(buffer))
        guard start.index >= 0, start.index <= used else { return nil }
        var position = start.position
        for byte in UnsafeBufferPointer(start: content + start.index, count: used - start.index) {
            if byte == UInt8(ascii: "\n") {
                position.line += 1
                position.column = 1
            } else if byte & 0xC0 != 0x80 {
                position.column += 1
            }
        }
        position.byteOffset += used - start.index
        return position
    }
}

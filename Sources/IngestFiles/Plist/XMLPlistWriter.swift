import IngestCore
/// Writes property list events as Apple's XML plist text, tab-indented as
/// `PropertyListSerialization` does, straight to a ``BufferedFileWriter``.
///
/// Text is escaped (`&`, `<`, `>`; CR as `&#13;` so XML's line-end normalisation
/// cannot turn it into LF). Characters XML 1.0 cannot carry at all — controls other
/// than tab, LF and CR, and U+FFFE, U+FFFF — are written as U+FFFD (the binary
/// format carries them exactly).
final class XMLPlistWriter: PlistEventWriter {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
    static let footer = "</plist>\n"

    /// Where the text goes; sinks switch it between spools.
    var output: BufferedFileWriter
    /// Indentation of the next element.
    var depth: Int
    /// An opened container not yet written: written as `<dict>` at its first child,
    /// or as `<dict/>` if it closes empty.
    private var pendingOpen: StaticString?

    init(output: BufferedFileWriter, depth: Int = 0) {
        self.output = output
        self.depth = depth
    }

    func beginDictionary() throws { try open("dict") }
    func endDictionary() throws { try close("</dict>\n", empty: "<dict/>\n") }
    func beginArray() throws { try open("array") }
    func endArray() throws { try close("</array>\n", empty: "<array/>\n") }

    func readBack(_ text: String) -> String { Self.readBack(text) }

    func key(_ key: String) throws {
        try line("<key>")
        try writeEscaped(key)
        try output.write("</key>\n")
    }

    func scalar(_ value: PlistScalar) throws {
        switch value {
        case .string(let text):
            try line("<string>")
            try writeEscaped(text)
            try output.write("</string>\n")
        case .integer(let number):
            try line("<integer>")
            try output.write(String(number))
            try output.write("</integer>\n")
        case .real(let number):
            try line("<real>")
            try output.write(number.description)
            try output.write("</real>\n")
        case .bool(let flag):
            try line(flag ? "<true/>\n" : "<false/>\n")
        case .date(let date):
            try line("<date>")
            try output.write(date.text)
            try output.write("</date>\n")
        case .data(let bytes):
            // On one line: Apple's writer wraps long base64 at 76 columns, but
            // readers accept it unwrapped (whitespace inside <data> is ignored).
            try line("<data>")
            try output.write(Base64.encode(bytes))
            try output.write("</data>\n")
        }
    }

    func uid(_ value: UInt64) throws {
        try line("<dict>\n")
        depth += 1
        try line("<key>CF$UID</key>\n")
        try line("<integer>")
        try output.write(String(value))
        try output.write("</integer>\n")
        depth -= 1
        try line("</dict>\n")
    }

    // MARK: Text

    private func open(_ name: StaticString) throws {
        try flushPending()
        pendingOpen = name
    }

    private func close(_ tag: StaticString, empty: StaticString) throws {
        if pendingOpen != nil {
            pendingOpen = nil
            try line(empty)
            return
        }
        depth -= 1
        try line(tag)
    }

    private func flushPending() throws {
        guard let name = pendingOpen else { return }
        pendingOpen = nil
        try indent()
        try output.write(byte: UInt8(ascii: "<"))
        try output.write(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        try output.write(">\n")
        depth += 1
    }

    private static let tabs = [UInt8](repeating: 9, count: 64)

    /// One tab a level, up to 64: white space means nothing in a property list, and
    /// a tab a level for a value nested thousands deep would make the file grow with
    /// the square of the depth (50 MB at 10 000 levels).
    private func indent() throws {
        let count = min(depth, Self.tabs.count)
        try Self.tabs.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    private func line(_ text: StaticString) throws {
        try flushPending()
        try indent()
        try output.write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `text` as a reader of the written text gets it back: the characters XML 1.0
    /// cannot carry (see the type's notes) are U+FFFD.
    static func readBack(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isReplaced) else { return text }
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { kept.append(isReplaced(scalar) ? "\u{FFFD}" : scalar) }
        return String(kept)
    }

    /// Whether XML 1.0 cannot carry `scalar`, which is written as U+FFFD.
    private static func isReplaced(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case ..<0x20, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    /// Writes `text` as XML character data (see the type's notes).
    func writeEscaped(_ text: String) throws {
        var text = text
        try text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            func flushRun() throws {
                if index > runStart {
                    try output.write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart..<index]))
                }
            }
            while index < bytes.count {
                let byte = bytes[index]
                let replacement: StaticString?
                var length = 1
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case 0x0D: replacement = "&#13;"
                case 0x09, 0x0A: replacement = nil
                case ..<0x20: replacement = "\u{FFFD}"
                case 0xEF
                where index + 2 < bytes.count && bytes[index + 1] == 0xBF
                    && (bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF):
                    replacement = "\u{FFFD}"  // U+FFFE, U+FFFF
                    length = 3
                default: replacement = nil
                }
                if let replacement {
                    try flushRun()
                    try output.write(
                        UnsafeRawBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
                    index += length
                    runStart = index
                } else {
                    index += 1
                }
            }
            try flushRun()
        }
    }
}

import IngestCore
import IngestPOSIX
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension InputFile {
    /// The most bytes at the file's start read for its first record: where its
    /// records' ancestors are.
    static let recordSearchLimit = 1 << 20

    /// This XML file in up to `count` parts, split before records at `recordDepth`
    /// near equal shares of it of at least `minimumSize` bytes, each opened again by
    /// its path on its own (``init(piece:of:)``) and read after its records'
    /// ancestors' start tags (``/IngestCore/FilePiece/XMLContext``); `nil` when it
    /// is not a regular file read as stored, is too small for two parts, declares a
    /// DTD (which may declare entities and default attributes) or an encoding other
    /// than UTF-8, is not UTF-8, has no record in its first MiB under ancestors alone,
    /// or its path no longer opens this file.
    ///
    /// A part starts at a line that starts, after blanks, with `<` and the name of
    /// the file's first record; whether that is a record under the same ancestors is
    /// only known when the part before is read (``/IngestCore/FilePiece``).
    public func recordParts(atMost count: Int, minimumSize: Int, recordDepth: Int) throws -> [InputFile]? {
        guard let size, let path, count > 1, recordDepth >= 2 else { return nil }
        let shares = min(count, size / max(minimumSize, 1))
        guard shares > 1, let head = try bytes(at: 0, count: min(size, Self.recordSearchLimit), of: path),
            let first = FirstRecord(in: head, recordDepth: recordDepth)
        else { return nil }
        let context = FilePiece.XMLContext(recordDepth: recordDepth, prefix: first.prefix)
        var starts = [0]
        for index in 1..<shares {
            let share = size / shares
            guard
                let start = try recordLine(
                    named: first.name, atOrAfter: max(share * index, first.offset + 1), before: share * (index + 1),
                    of: path),
                start > starts.last!
            else { continue }
            starts.append(start)
        }
        let atStart = FilePiece.XMLContext(recordDepth: recordDepth, prefix: [])
        return opened(startingAt: starts) { $0 == 0 ? atStart : context }
    }

    /// Where the first line at or past `offset` and before `limit` starts that holds,
    /// after blanks, `<` and `name` and then a blank, `>` or `/`; `nil` when none does.
    private func recordLine(named name: [UInt8], atOrAfter offset: Int, before limit: Int, of path: String) throws
        -> Int?
    {
        let window = 64 << 10
        // Each window after the first starts this far before the last one's end, so
        // that a record's start tag across the two is whole in one of them.
        let overlap = name.count + 2 + 256
        var position = offset
        while position < limit {
            guard let block = try bytes(at: position, count: window, of: path), block.count > name.count + 2 else {
                return nil
            }
            var index = 0
            while let open = block[index...].firstIndex(of: UInt8(ascii: "<")), open + name.count + 1 < block.count {
                index = open + 1
                guard block[(open + 1)...].starts(with: name), Self.endsName(block[open + 1 + name.count]) else {
                    continue
                }
                var lineStart = open
                while lineStart > 0, block[lineStart - 1] == 0x20 || block[lineStart - 1] == 0x09 { lineStart -= 1 }
                guard lineStart > 0, block[lineStart - 1] == 0x0A else { continue }
                let start = position + lineStart
                return start < limit ? start : nil
            }
            position += block.count > overlap ? block.count - overlap : block.count
        }
        return nil
    }

    /// Whether `byte` may follow an element's name in its start tag.
    static func endsName(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "/")
    }

    /// Up to `count` bytes of the file at `path` from `offset`; `nil` when it no
    /// longer opens (it is then read whole, as it was opened).
    private func bytes(at offset: Int, count: Int, of path: String) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { _ = close(descriptor) }
        var block = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = block.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset + filled))
            }
            if read < 0, errno == EINTR { continue }
            if read < 0 { throw IngestError(.io, "read failed: \(POSIX.lastError)", file: displayName) }
            if read == 0 { break }
            filled += read
        }
        return Array(block[..<filled])
    }
}

/// The first record of an XML file's start under its ancestors alone (no element
/// above it begun or ended but them), found by Expat: its name as written, where
/// it starts, and its ancestors' start tags as a part's prefix.
struct FirstRecord {
    let name: [UInt8]
    let offset: Int
    let prefix: [UInt8]

    /// The first record at `recordDepth` in `head`, the file's first bytes; `nil`
    /// when there is none, or the file is one its parts could not be read apart in.
    init?(in head: [UInt8], recordDepth: Int) {
        // UTF-16 (a byte-order mark, or a zero byte in `<?`), or an EBCDIC `<`.
        guard head.count > 2, head[0] == UInt8(ascii: "<") || head[0] == 0xEF || Self.isBlank(head[0]),
            head[1] != 0
        else { return nil }
        let finder = Finder(recordDepth: recordDepth)
        let parser = ExpatPushParser(receiver: finder, displayName: "<head>")
        _ = try? head.withUnsafeBytes { try parser.feed($0) }
        guard let record = finder.record, let documentStart = finder.ancestors.first,
            let prolog = String(validating: head[..<documentStart], as: UTF8.self), !prolog.contains("<!DOCTYPE"),
            Self.declaresUTF8(prolog)
        else { return nil }
        var prefix: [UInt8] = []
        for start in finder.ancestors {
            guard let tag = Self.startTag(at: start, in: head) else { return nil }
            prefix += tag.map { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 ? 0x20 : $0 }
        }
        prefix.append(0x0A)
        var nameEnd = record + 1
        while nameEnd < head.count, !InputFile.endsName(head[nameEnd]) { nameEnd += 1 }
        guard nameEnd < head.count else { return nil }
        name = Array(head[(record + 1)..<nameEnd])
        offset = record
        self.prefix = prefix
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Whether the XML declaration in `prolog`, if any, names no encoding or UTF-8.
    private static func declaresUTF8(_ prolog: String) -> Bool {
        guard prolog.hasPrefix("<?xml") || prolog.hasPrefix("\u{FEFF}<?xml"),
            let declarationEnd = prolog.range(of: "?>")
        else { return true }
        let declaration = prolog[..<declarationEnd.lowerBound].lowercased()
        guard let encoding = declaration.range(of: "encoding") else { return true }
        let rest = declaration[encoding.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
        return rest.hasPrefix("utf-8\"") || rest.hasPrefix("utf-8'") || rest.hasPrefix("utf8\"")
            || rest.hasPrefix("utf8'")
    }

    /// The start tag that begins at `start` in `bytes`, through its `>` (one inside
    /// a quoted attribute value does not end it).
    private static func startTag(at start: Int, in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var quote: UInt8?
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                // An empty element (`<a/>`) has no records under it.
                return bytes[index - 1] == UInt8(ascii: "/") ? nil : bytes[start...index]
            }
            index += 1
        }
        return nil
    }

    /// Notes the ancestors' starts until the first record under them alone.
    private final class Finder: ParseEventReceiver {
        let recordDepth: Int
        var depth = 0
        /// Elements above the records begun or ended so far.
        var shallowEvents = 0
        var ancestors: [Int] = []
        var record: Int?

        init(recordDepth: Int) { self.recordDepth = recordDepth }

        func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
            depth += 1
            if depth < recordDepth {
                shallowEvents += 1
                if shallowEvents == depth { ancestors.append(position.byteOffset) }
            } else if depth == recordDepth, shallowEvents == recordDepth - 1 {
                record = position.byteOffset
                throw IngestError(.data, "found")
            }
        }

        func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {}

        func endElement(_ name: Name, at position: SourcePosition) throws {
            if depth < recordDepth {
                shallowEvents += 1
                // An element above the records ended: its records are not under ancestors alone.
                if shallowEvents > recordDepth - 1 { throw IngestError(.data, "none") }
            }
            depth -= 1
        }
    }
}

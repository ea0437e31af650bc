import IngestCore
import IngestPOSIX
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension InputFile {
    /// This file in up to `count` parts, split just after line ends near equal shares
    /// of it of at least `minimumSize` bytes, each opened again by its path on its own
    /// (``init(piece:of:)``); `nil` when it is not a regular file read as stored, is too
    /// small for two parts, or its path no longer opens this file (an unlinked spool,
    /// a file replaced since).
    ///
    /// The parts are where reading should start; a part's real end is found when it
    /// is read (``/IngestCore/FilePiece``).
    public func lineParts(atMost count: Int, minimumSize: Int) throws -> [InputFile]? {
        guard let size, path != nil, count > 1 else { return nil }
        let shares = min(count, size / max(minimumSize, 1))
        guard shares > 1 else { return nil }
        var starts = [0]
        for index in 1..<shares {
            let share = size / shares
            guard let start = try lineStart(atOrAfter: share * index, before: share * (index + 1)),
                start > starts.last!
            else { continue }
            starts.append(start)
        }
        return opened(startingAt: starts) { _ in nil }
    }

    /// This file opened again at each of `starts` (more than one), each part ending
    /// near where the next starts and read as `xml` says for its index; `nil` when a
    /// part cannot be opened, or its path no longer opens this file.
    func opened(startingAt starts: [Int], xml: (Int) -> FilePiece.XMLContext?) -> [InputFile]? {
        guard starts.count > 1, let identity = fileIdentity else { return nil }
        var parts: [InputFile] = []
        for index in starts.indices {
            let endsNear = index + 1 < starts.count ? starts[index + 1] : nil
            let piece = FilePiece(start: starts[index], endsNear: endsNear, xml: xml(index))
            guard let part = try? InputFile(piece: piece, of: self), part.fileIdentity == identity else { return nil }
            parts.append(part)
        }
        return parts
    }

    /// Where the first line at or past `offset` that starts with what may start a
    /// JSON value starts, before `limit`; `nil` when none does. (A line starting
    /// with a space or a closing bracket is most likely inside a pretty-printed value,
    /// where a part would have to be read again.)
    private func lineStart(atOrAfter offset: Int, before limit: Int) throws -> Int? {
        guard let path else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        // Not this file's to split any more: read whole, as it was opened.
        guard descriptor >= 0 else { return nil }
        defer { _ = close(descriptor) }
        var block = [UInt8](repeating: 0, count: 64 << 10)
        // The line end before the line looked at, then the line's first byte.
        var position = offset - 1
        while position + 1 < limit {
            let count = block.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(position)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                if count < 0 { throw IngestError(.io, "read failed: \(POSIX.lastError)", file: displayName) }
                return nil
            }
            var index = 0
            while let newline = block[index..<count].firstIndex(of: 0x0A), newline + 1 < count {
                if Self.mayStartValue(block[newline + 1]) {
                    let start = position + newline + 1
                    return start < limit ? start : nil
                }
                index = newline + 1
            }
            // Read on from the last line end, so that the byte after it is seen.
            let last = block[..<count].lastIndex(of: 0x0A)
            position += last.map { $0 > 0 ? $0 : count } ?? count
        }
        return nil
    }

    /// Whether `byte` may be the first of a JSON value: `{`, `[`, `"`, a digit, `-`,
    /// or the first letter of `true`, `false` or `null`.
    private static func mayStartValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            true
        default: false
        }
    }
}

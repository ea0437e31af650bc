import IngestCore
import IngestParsers
import CLibXML2

/// Feeds an ``InputFile`` to libxml2 through its I/O callbacks, counting bytes.
///
/// Reading through our own `read(2)` rather than letting libxml2 open the path keeps
/// libxml2 from doing anything the streaming parsers would not: it never opens a URL,
/// and never decompresses a `.gz` file on the fly (which would let a small file
/// become a huge tree). With a ``limit`` the read fails as soon as the input grows
/// past it, so an over-large standard input is refused without being held.
final class LibXML2InputSource {
    let input: InputFile
    /// The most bytes accepted, or `nil` for no limit.
    let limit: Int?
    /// Hears the bytes consumed so far after each read.
    let progress: ((Int) -> Void)?
    private(set) var consumed = 0
    /// The input grew past ``limit``.
    private(set) var exceededLimit = false
    /// Reading failed; this is why.
    private(set) var failure: IngestError?

    init(_ input: InputFile, limit: Int? = nil, progress: ((Int) -> Void)? = nil) {
        self.input = input
        self.limit = limit
        self.progress = progress
    }

    /// The context pointer to hand libxml2 with ``read``; valid while `self` lives.
    ///
    /// Safety: unretained, so the caller must keep `self` alive until libxml2 stops
    /// reading. Both callers (`XMLTree.init(reading:…)`, `ValidationSchema.validate`)
    /// read `source.failure` after the parse, which keeps it alive across it; wrap the
    /// call in `withExtendedLifetime(source)` where there is no such later use.
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// libxml2's `xmlInputReadCallback`: bytes read, 0 at the end, -1 on failure.
    static let read: xmlInputReadCallback = { context, buffer, length in
        guard let context, let buffer else { return -1 }
        let source = Unmanaged<LibXML2InputSource>.fromOpaque(context).takeUnretainedValue()
        return source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length)))
    }

    private func read(into buffer: UnsafeMutableRawBufferPointer) -> Int32 {
        guard failure == nil, !exceededLimit else { return -1 }
        do {
            var wanted = buffer.count
            if let limit {
                // Ask for one byte past the limit at most, enough to notice it was passed.
                wanted = min(wanted, max(limit + 1 - consumed, 0))
                if wanted == 0 {
                    exceededLimit = true
                    return -1
                }
            }
            let count = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
            consumed += count
            if let limit, consumed > limit {
                exceededLimit = true
                return -1
            }
            progress?(consumed)
            return Int32(count)
        } catch let error as IngestError {
            failure = error
            return -1
        } catch {
            failure = IngestError(.io, "read failed: \(error)", file: input.displayName)
            return -1
        }
    }
}

import IngestCore

/// A feed's items as an `AsyncSequence` of `(item, feed)` pairs: `feed` is the
/// feed as read up to that item, without items. Reading happens as the loop asks,
/// on the loop's own task, one chunk at a time: memory stays flat, and a loop that
/// stops early stops the reading.
///
/// ```swift
/// for try await (item, feed) in FeedReader().items(contentsOf: url) {
///     print(feed.title?.plainText ?? "", item.title?.plainText ?? "")
/// }
/// ```
///
/// Reads are blocking file or source reads, as `FileHandle`'s are.
public struct FeedItems: AsyncSequence {
    /// An item, and the feed as read up to it (without items).
    public typealias Element = (item: FeedItem, feed: Feed)
    /// A parse error (``/IngestCore/IngestError``) or a read error.
    public typealias Failure = any Error

    let reader: FeedReader
    let open: () throws -> any ByteSource
    let canReopen: Bool

    /// Opens the input; reading starts with the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(engine: Engine(reader: reader, open: open, canReopen: canReopen))
    }

    /// Reads the input a chunk at a time as items are asked for.
    public struct Iterator: AsyncIteratorProtocol {
        let engine: Engine

        /// The next item, or `nil` at the end of the feed.
        public mutating func next() async throws -> Element? { try engine.next() }

        /// The next item, read on the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? { try engine.next() }
    }

    /// The reading behind an iterator: a parser core and the items it has handed
    /// over that the loop has not taken yet (at most one chunk's worth).
    final class Engine {
        private let options: FeedReader.Options
        private let open: () throws -> any ByteSource
        private let canReopen: Bool
        private var source: (any ByteSource)?
        private var core: FeedParserCore?
        private var queue: [Element] = []
        private var head = 0
        private var finished = false
        private let buffer: UnsafeMutableRawBufferPointer

        init(reader: FeedReader, open: @escaping () throws -> any ByteSource, canReopen: Bool) {
            options = reader.options
            self.open = open
            self.canReopen = canReopen
            buffer = .allocate(byteCount: Swift.max(reader.options.chunkSize, 64), alignment: 16)
        }

        deinit { buffer.deallocate() }

        func next() throws -> Element? {
            while head >= queue.count {
                if finished { return nil }
                queue.removeAll(keepingCapacity: true)
                head = 0
                try step()
            }
            defer { head += 1 }
            return queue[head]
        }

        private func makeCore(
            _ mode: FeedParserCore.XMLMode, skipping: Int = 0, prior: IngestError? = nil,
            name: String
        ) -> FeedParserCore {
            FeedParserCore(options: options, xmlMode: mode, skipping: skipping, priorError: prior, displayName: name) {
                [unowned self] item, feed in
                queue.append((item, feed))
            }
        }

        private func step() throws {
            if core == nil {
                let source = try open()
                self.source = source
                core = makeCore(options.recovery == .always ? .recovering : .strict, name: source.displayName)
            }
            guard let source, let core else { return }
            do {
                let count = try source.read(into: buffer)
                if count == 0 {
                    finished = true
                    _ = try core.finish()
                } else {
                    try core.push(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                }
            } catch let error as IngestError
                where core.mayRecover(from: error) && options.recovery == .fallback && canReopen
            {
                let again = try open()
                self.source = again
                finished = false
                self.core = makeCore(.recovering, skipping: core.itemCount, prior: error, name: again.displayName)
            } catch {
                finished = true
                throw error
            }
        }
    }
}

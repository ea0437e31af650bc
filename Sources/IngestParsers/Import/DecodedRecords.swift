import IngestCore
import IngestPOSIX
import Foundation

/// Streams the records at `path` of an XML or JSON document as your own `Decodable`
/// values, one at a time: memory holds a bounded number of records whatever the
/// input's size.
///
/// ```swift
/// struct Person: Decodable { let firstName: String; let lastName: String }
///
/// for try await person in IngestKit.records(Person.self, at: "people/person",
///                                            from: URL(fileURLWithPath: "folks.xml")) {
///     print(person.lastName)
/// }
/// ```
///
/// A record that does not decode ends the sequence, unless `onFailure` is
/// ``DecodingFailurePolicy/skip(_:)``: then it is reported and left out, and the
/// sequence goes on with the next record.
///
/// The path is the one `--records` takes: in XML from the document element down
/// to the records (`rss/channel/item`). In JSON it starts below the top-level value
/// and an array's items are called `item`, as in ijson: `people/item` for
/// `{"people": [...]}`, and just `item` for a top-level array.
///
/// Keys are matched as `TreeDecoder` describes: child elements and JSON members by
/// name, XML attributes by name too, XML text converted to the numbers and Booleans
/// the type asks for. A record that does not decode gives an ``/IngestCore/IngestError``
/// naming the file and the line and column where the record starts.
///
/// Parsing and decoding run on a thread of their own (with a stack that holds the
/// deepest nesting accepted, see ``/IngestCore/ParseLimits/maxSupportedDepth``), ahead of the
/// consumer by at most `buffer` records, so memory stays flat however slow the
/// consumer; leaving the loop early, or cancelling the task that iterates, stops it
/// (the iteration then throws `CancellationError`).
public func records<T: Decodable>(
    _ type: T.Type, at path: String, from url: URL,
    options: Importer.Options = .init(), buffer: Int = 256,
    onFailure: DecodingFailurePolicy = .stop
) -> DecodedRecords<T> {
    DecodedRecords(path: path, url: url, options: options, buffer: buffer, onFailure: onFailure)
}

/// What ``records(_:at:from:options:buffer:onFailure:)`` does with a record that
/// does not decode as the type asked for.
public enum DecodingFailurePolicy: Sendable {
    /// Throw the error, which ends the sequence. The default.
    case stop
    /// Hand the error to the closure, leave the record out and go on.
    case skip(@Sendable (IngestError) -> Void)
}

/// The records of one input decoded as `T`: see ``records(_:at:from:options:buffer:onFailure:)``.
public struct DecodedRecords<T: Decodable>: AsyncSequence, Sendable {
    /// Each record, decoded.
    public typealias Element = T
    let path: String
    let url: URL
    let options: Importer.Options
    let buffer: Int
    let onFailure: DecodingFailurePolicy

    public func makeAsyncIterator() -> Iterator {
        Iterator(
            handle: .init(
                DecodingSession(
                    path: path, url: url, options: options, capacity: buffer,
                    decode: { try $0.decoded(as: T.self) })),
            onFailure: onFailure)
    }

    /// Hands out the records in document order as the parsing thread delivers them;
    /// a record that does not decode throws an ``/IngestCore/IngestError`` and ends the sequence,
    /// or is skipped (see ``DecodingFailurePolicy``).
    public struct Iterator: AsyncIteratorProtocol {
        let handle: DecodingSession.Handle
        let onFailure: DecodingFailurePolicy
        var session: DecodingSession { handle.session }

        public mutating func next() async throws -> T? {
            while true {
                let session = self.session
                let item = try await withTaskCancellationHandler {
                    try await session.next()
                } onCancel: {
                    session.cancel()
                }
                try Task.checkCancellation()
                guard let (decoded, position) = item else { return nil }
                do {
                    let record = try decoded.value.get() as! T  // decoded as T on the parsing thread
                    return record
                } catch let error as DecodingError {
                    let failure = IngestError(
                        .data, "cannot decode \(T.self): \(error.summary)",
                        file: session.displayName, position: position)
                    guard case .skip(let report) = onFailure else {
                        session.cancel()
                        throw failure
                    }
                    report(failure)
                }
            }
        }
    }
}

/// One parse feeding decoded records to one consumer: a parsing thread that also
/// decodes each record tree (so a deep one is decoded on its large stack, and its
/// tree released there), and a bounded hand-over between it and the consumer's
/// `await`s. Ends the parse when the consumer goes away.
final class DecodingSession: @unchecked Sendable {
    /// A decoded record (or why it did not decode), which only the one consumer reads.
    typealias Item = (UncheckedBox<Result<Any, any Error>>, SourcePosition)

    private struct State {
        var items: [Item] = []
        var head = 0
        var end: Result<Void, any Error>?
        var waiting: CheckedContinuation<Item?, any Error>?
        var started = false
        var cancelled = false
    }

    /// Guards `state`; the parser waits on it while the buffer is full.
    private let condition = NSCondition()
    private var state = State()
    private let capacity: Int
    private let path: String
    private let url: URL
    private let options: Importer.Options
    /// Decodes a record tree as the consumer's type.
    private let decode: (JSONValue) throws -> Any
    let displayName: String

    init(path: String, url: URL, options: Importer.Options, capacity: Int, decode: @escaping (JSONValue) throws -> Any)
    {
        self.path = path
        self.url = url
        self.options = options
        self.decode = decode
        displayName = url.path
        self.capacity = max(1, capacity)
    }

    /// The consumer's reference: the parsing thread holds the session too, so the
    /// session cannot notice the consumer leaving; this handle's deinit tells it.
    final class Handle: Sendable {
        let session: DecodingSession
        init(_ session: DecodingSession) { self.session = session }
        deinit { session.cancel() }
    }

    /// The next record tree, or `nil` at the end; starts the parse on first use.
    func next() async throws -> Item? {
        let start = locked { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        if start { startParsing() }
        return try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Item?, any Error>? = locked { state in
                if state.cancelled { return .success(nil) }
                if state.head < state.items.count {
                    let item = state.items[state.head]
                    state.head += 1
                    // Items read are dropped as soon as they are as many as the buffer
                    // holds, so a slow consumer never lets the array grow.
                    if state.head == state.items.count {
                        state.items.removeAll(keepingCapacity: true)
                        state.head = 0
                    } else if state.head >= capacity {
                        state.items.removeFirst(state.head)
                        state.head = 0
                    }
                    condition.signal()  // room for the parser
                    return .success(item)
                }
                switch state.end {
                case .success: return .success(nil)
                case .failure(let error): return .failure(error)
                case nil:
                    state.waiting = continuation
                    return nil
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Records parsed and not yet handed out, read or not (for tests of the bound).
    var bufferedItemCount: Int { locked { $0.items.count } }

    /// Stops the parse: the parsing thread ends at its next record.
    func cancel() {
        let waiting = locked { state in
            state.cancelled = true
            condition.broadcast()
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(returning: nil)
    }

    private struct Cancelled: Error {}

    private func locked<R>(_ body: (inout State) throws -> R) rethrows -> R {
        condition.lock()
        defer { condition.unlock() }
        return try body(&state)
    }

    private func startParsing() {
        let session = UncheckedBox(self)
        LargeStackThread.detach {
            let session = session.value
            let result = Result { try session.parse() }
            let waiting = session.locked { state in
                state.end = result
                defer { state.waiting = nil }
                return state.waiting
            }
            if let waiting {
                switch result {
                case .success: waiting.resume(returning: nil)
                case .failure(let error): waiting.resume(throwing: error)
                }
            }
        }
    }

    private func parse() throws {
        let input = try InputFile(path: url.path)
        do {
            try Importer(options: options).forEachRecordTree(in: input, at: path) { tree, position in
                try self.hand(over: (UncheckedBox(Result { try self.decode(tree) }), position))
            }
        } catch {
            // Stopping on request is no failure; the error that stopped the parse then
            // is the stop itself, whatever wrapped it on the way out.
            if locked({ $0.cancelled }) { return }
            throw error
        }
    }

    /// Gives `item` to a waiting consumer, or buffers it, waiting for room first.
    private func hand(over item: Item) throws {
        // Not through `locked`: `state` must be read afresh after every wait, and an
        // inout parameter may be assumed unchanged across the call to `wait()`.
        condition.lock()
        while state.items.count - state.head >= capacity, !state.cancelled { condition.wait() }
        guard !state.cancelled else {
            condition.unlock()
            throw Cancelled()
        }
        let waiting = state.waiting
        if waiting != nil {
            state.waiting = nil
        } else {
            state.items.append(item)
        }
        condition.unlock()
        waiting?.resume(returning: item)
    }
}

extension DecodingError {
    /// What went wrong and where in the record, in one line.
    var summary: String {
        func path(_ context: Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "" : " at \(keys.joined(separator: "."))"
        }
        switch self {
        case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\"\(path(context))"
        case .valueNotFound(_, let context), .typeMismatch(_, let context), .dataCorrupted(let context):
            return "\(context.debugDescription)\(path(context))"
        @unknown default: return "\(self)"
        }
    }
}

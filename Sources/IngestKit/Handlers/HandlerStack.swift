/// Drives ``ElementHandler``s from parse events: the delegate swapping of the seed,
/// done in one place so that handlers never touch the parser.
///
/// The root handler takes the document element. From then on the handler in charge
/// is asked for a handler for each child element, that handler is pushed, and when the
/// child's element ends it is popped and its parent hears
/// ``ElementHandler/didFinish(child:element:)``. Text is accumulated per element in
/// buffers reused across elements, so a steady state allocates nothing.
///
/// Errors thrown by a handler stop the parse; they come out of the parser as an
/// ``IngestError`` carrying the position of the event that caused them.
public final class HandlerStack: ParseEventReceiver {
    private struct Frame {
        var handler: (any ElementHandler)?
        var name: Name
        var start: SourcePosition
        var accumulates: Bool
        var hadChildElements = false
    }

    public let limits: ParseLimits
    private let root: any ElementHandler
    private var frames: [Frame] = []
    /// Text buffers by depth, kept across elements so their capacity is reused.
    private var texts: [[UInt8]] = []
    /// Depth of elements being skipped below the top frame (a handler returned nil).
    private var skipping = 0
    private var sawDocumentElement = false

    public init(root: any ElementHandler, limits: ParseLimits = .default) {
        self.root = root
        self.limits = limits
    }

    /// Current nesting depth, the document element being 1.
    public var depth: Int { frames.count + skipping }

    public func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
        let depth = self.depth + 1
        guard depth <= limits.maxDepth else {
            throw IngestError(.data, "elements nested deeper than \(limits.maxDepth) levels (raise the limit with --max-depth)", position: position)
        }
        let element = ElementStart(name: name, attributes: attributes, position: position, depth: depth)
        let handler: (any ElementHandler)?
        if skipping > 0 {
            handler = nil
        } else if let top = frames.last {
            frames[frames.count - 1].hadChildElements = true
            handler = try Self.locate(position) { try top.handler?.handler(forChild: element) }
        } else {
            guard !sawDocumentElement else {
                throw IngestError(.data, "more than one document element", position: position)
            }
            sawDocumentElement = true
            handler = root
        }
        guard let handler else {
            skipping += 1
            return
        }
        frames.append(Frame(handler: handler, name: name, start: position, accumulates: handler.accumulatesText))
        if texts.count < frames.count { texts.append([]) }
        texts[frames.count - 1].removeAll(keepingCapacity: true)
        try Self.locate(position) { try handler.didStart(element) }
    }

    public func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        guard skipping == 0, let top = frames.last, let handler = top.handler else { return }
        if top.accumulates {
            let index = frames.count - 1
            guard texts[index].count + bytes.count <= limits.maxTextBytes else {
                throw IngestError(.data, "text of <\(top.name)> exceeds \(limits.maxTextBytes) bytes (raise the limit with --max-text-bytes)", position: position)
            }
            texts[index].append(contentsOf: bytes)
        }
        try Self.locate(position) { try handler.didReceive(text: bytes) }
    }

    public func endElement(_ name: Name, at position: SourcePosition) throws {
        if skipping > 0 {
            skipping -= 1
            return
        }
        guard let frame = frames.popLast(), let handler = frame.handler else { return }
        let depth = frames.count + 1
        try texts[depth - 1].withUnsafeBufferPointer { buffer in
            let end = ElementEnd(name: frame.name, text: TextBytes(buffer), startPosition: frame.start,
                                 position: position, depth: depth, hadChildElements: frame.hadChildElements)
            try Self.locate(position) {
                try handler.didEnd(end)
                try frames.last?.handler?.didFinish(child: handler, element: end)
            }
        }
    }

    /// Runs `body`, giving any error that has no position the position of the event.
    private static func locate<T>(_ position: SourcePosition, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as IngestError {
            if error.position == nil { error.position = position }
            throw error
        } catch {
            throw IngestError(.data, "\(error)", position: position)
        }
    }
}

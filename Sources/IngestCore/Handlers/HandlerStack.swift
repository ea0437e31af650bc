/// Drives ``ElementHandler``s from parse events: the delegate swapping of the seed,
/// done in one place so that handlers never touch the parser.
///
/// The root handler takes the document element. From then on the handler in charge
/// is asked for a handler for each child element, that handler is pushed, and when the
/// child's element ends it is popped and its parent hears
/// ``ElementHandler/didFinish(child:element:)``.
///
/// Text is accumulated in one buffer used as a stack: an element's text starts where
/// its frame says, a child's text follows it and is cut off when the child ends, so
/// a parent's text resumes contiguously after it. A steady state allocates nothing.
///
/// Errors thrown by a handler stop the parse; they come out of the parser as an
/// ``IngestError`` carrying the position of the event that caused them.
public final class HandlerStack: ParseEventReceiver {
    private struct Frame {
        var handler: any ElementHandler
        var name: Name
        var start: SourcePosition
        var accumulates: Bool
        var textStart: Int
        var hadChildElements = false
        var kind: ContentKind
    }

    /// The bounds on nesting and on one element's text this stack enforces.
    public let limits: ParseLimits
    private let root: any ElementHandler
    @exclusivity(unchecked) private var frames: [Frame] = []
    @exclusivity(unchecked) private var text: [UInt8] = []
    /// Depth of elements being skipped below the top frame (a handler returned nil).
    @exclusivity(unchecked) private var skipping = 0
    private var sawDocumentElement = false

    /// A stack whose `root` handler takes the document element; a document with more
    /// than one is an error. Hand the stack to a parser as its receiver. One stack
    /// reads one document.
    public init(root: any ElementHandler, limits: ParseLimits = .default) {
        self.root = root
        self.limits = limits
        text.reserveCapacity(4096)
    }

    /// Current nesting depth, the document element being 1.
    public var depth: Int { frames.count + skipping }

    /// Asks the handler in charge for the child's handler (the root handler takes the
    /// document element) and makes it the handler in charge, or skips the element
    /// when it is `nil`; throws when nesting passes ``ParseLimits/maxDepth``.
    public func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
        try start(name, attributes: attributes, kind: .markup, at: position)
    }

    /// A JSON object or array starts: as ``startElement(_:attributes:at:)``, with the
    /// kind in ``ElementStart/kind``.
    public func startElement(_ name: Name, kind: ContentKind, at position: SourcePosition) throws {
        try start(name, attributes: .none, kind: kind, at: position)
    }

    /// A JSON scalar: the child's handler hears it start and end with its text, and
    /// its parent hears it finish, without copying the text into the stack.
    public func scalar(_ name: Name, kind: ContentKind, text bytes: UnsafeBufferPointer<UInt8>,
                       at position: SourcePosition) throws {
        if skipping > 0 { return }
        let depth = frames.count + 1
        guard !frames.isEmpty, depth <= limits.maxDepth, bytes.count <= limits.maxTextBytes else {
            // The document element itself, or over a limit: the element events say so.
            try start(name, attributes: .none, kind: kind, at: position)
            if !bytes.isEmpty { try text(bytes, at: position) }
            return try endElement(name, at: position)
        }
        let top = frames.count - 1
        frames[top].hadChildElements = true
        let parent = frames[top].handler
        var end = ElementEnd(name: name, text: TextBytes(bytes), startPosition: position,
                             position: position, depth: depth, hadChildElements: false)
        end.kind = kind
        do {
            if try parent.take(scalar: end) { return }
            var element = ElementStart(name: name, attributes: .none, position: position, depth: depth)
            element.kind = kind
            guard let handler = try parent.handler(forChild: element) else { return }
            try handler.didStart(element)
            try handler.didEnd(end)
            try parent.didFinish(child: handler, element: end)
        } catch {
            throw Self.located(error, position)
        }
    }

    private func start(_ name: Name, attributes: Attributes, kind: ContentKind, at position: SourcePosition) throws {
        let depth = frames.count + skipping + 1
        guard depth <= limits.maxDepth else {
            throw IngestError(.data, "elements nested deeper than \(limits.maxDepth) levels", position: position, reason: .depthLimit(limits.maxDepth))
        }
        if skipping > 0 {
            skipping += 1
            return
        }
        var element = ElementStart(name: name, attributes: attributes, position: position, depth: depth)
        element.kind = kind
        let handler: (any ElementHandler)?
        if frames.isEmpty {
            guard !sawDocumentElement else {
                throw IngestError(.data, "more than one document element", position: position)
            }
            sawDocumentElement = true
            handler = root
        } else {
            let top = frames.count - 1
            frames[top].hadChildElements = true
            handler = try Self.locate(position) { try frames[top].handler.handler(forChild: element) }
        }
        guard let handler else {
            skipping = 1
            return
        }
        frames.append(Frame(handler: handler, name: name, start: position,
                            accumulates: handler.accumulatesText, textStart: text.count, kind: kind))
        try Self.locate(position) { try handler.didStart(element) }
    }

    /// Accumulates the text for the element in charge (when it
    /// ``ElementHandler/accumulatesText``) and offers it to its
    /// ``ElementHandler/didReceive(text:)``; ignored inside a skipped element. Throws
    /// when the element's text passes ``ParseLimits/maxTextBytes``.
    public func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        guard skipping == 0, !frames.isEmpty else { return }
        let top = frames.count - 1
        if frames[top].accumulates {
            guard text.count - frames[top].textStart + bytes.count <= limits.maxTextBytes else {
                throw IngestError(.data, "text of <\(frames[top].name)> exceeds \(limits.maxTextBytes) bytes", position: position, reason: .textLimit(limits.maxTextBytes))
            }
            text.append(contentsOf: bytes)
        }
        try Self.locate(position) { try frames[top].handler.didReceive(text: bytes) }
    }

    /// Tells the handler in charge ``ElementHandler/didEnd(_:)`` with its text, then
    /// its parent ``ElementHandler/didFinish(child:element:)``, and puts the parent
    /// back in charge.
    public func endElement(_ name: Name, at position: SourcePosition) throws {
        if skipping > 0 {
            skipping -= 1
            return
        }
        guard let frame = frames.popLast() else { return }
        let depth = frames.count + 1
        try text.withUnsafeBufferPointer { buffer in
            let own = UnsafeBufferPointer(rebasing: buffer[frame.textStart...])
            var end = ElementEnd(name: frame.name, text: TextBytes(own), startPosition: frame.start,
                                 position: position, depth: depth, hadChildElements: frame.hadChildElements)
            end.kind = frame.kind
            try Self.locate(position) {
                try frame.handler.didEnd(end)
                if !frames.isEmpty { try frames[frames.count - 1].handler.didFinish(child: frame.handler, element: end) }
            }
        }
        text.removeSubrange(frame.textStart...)
    }

    /// Runs `body`, giving any error that has no position the position of the event.
    @inline(__always)
    private static func locate<T>(_ position: SourcePosition, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw Self.located(error, position)
        }
    }

    private static func located(_ error: any Error, _ position: SourcePosition) -> IngestError {
        if var error = error as? IngestError {
            if error.position == nil { error.position = position }
            return error
        }
        return IngestError(.data, "\(error)", position: position)
    }
}

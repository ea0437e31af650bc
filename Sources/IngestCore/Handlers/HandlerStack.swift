/// Drives ``ElementHandler``s from parse events: the delegate swapping of Neuburg's chapter,
/// done in one place so that handlers never touch the parser.
///
/// The root handler takes the document element. From then on the handler in charge
/// is asked for a handler for each child element, that handler is pushed, and when the
/// child's element ends it is popped and its parent hears
/// ``ElementHandler/didFinish(child:element:)``.
///
/// A handler that ``ElementHandler/takesLeafChildren`` gets its attribute-less XML
/// children on credit: the stack keeps a frame for the child without asking for a
/// handler, and when the child ends as a leaf its parent takes it whole through
/// ``ElementHandler/take(scalar:)``; only a child that turns out to have children of
/// its own gets a handler, when its first child starts.
///
/// Text is accumulated in one buffer used as a stack: an element's text starts where
/// its frame says, a child's text follows it and is cut off when the child ends, so
/// a parent's text resumes contiguously after it. A steady state allocates nothing.
///
/// Errors thrown by a handler stop the parse; they come out of the parser as an
/// ``IngestError`` carrying the position of the event that caused them.
///
/// This is the hottest code of an import — several calls per element of every
/// document — so it keeps its frames and its text in buffers of its own rather
/// than arrays: a frame is read in place, never copied, and reaches its handler and
/// name without reference counting (a name lives as long as its ``NameTable``; a
/// handler is called through a box the stack keeps per depth, reused while the same
/// handler comes back at that depth, and let go of when the document ends).
///
/// The names given to ``startElement(_:attributes:at:)`` must stay alive until the
/// element ends: a parser's own ``NameTable`` ensures that; a program sending events
/// of its own keeps the table it interned them in. A handler must not send events
/// to the stack that is calling it.
public final class HandlerStack: ParseEventReceiver {
    // Safety (`Unmanaged` boxes, `unowned(unsafe)` names): `boxes[i]` holds, retained,
    // the box of the handler last in charge at depth i + 1, and a frame at index i
    // refers to `boxes[i]` without retaining it — or, for a pending leaf, to its
    // parent's, `boxes[i - 1]`. A box is replaced (and released) only when another
    // handler takes a frame at its depth, that is when no frame refers to it any more
    // (the frame at that depth was popped, and a pending leaf above it too); all are
    // released when the document element ends and in `deinit`. So every handler on
    // the stack is kept alive by the stack itself, and the parent a child reports to
    // is below it, still on the stack. A frame's name belongs to the parser's NameTable, which
    // outlives the document (see the note above); `deinit` never reads it. No handler
    // of this package holds the stack, and handlers must not send it events (see
    // above): so no handler call overlaps a push that reallocates `frames` or an
    // `appendText` that reallocates `text` under the `ElementEnd` being read.
    private struct Frame {
        /// The box of the handler in charge; a pending leaf's is its parent's.
        var box: Unmanaged<HandlerBox>
        unowned(unsafe) var name: Name
        var start: SourcePosition
        var textStart: Int
        var accumulates: Bool
        var receivesText: Bool
        var hadChildElements: Bool
        var kind: ContentKind
        /// The handler ``ElementHandler/takesLeafChildren``.
        var takesLeaves: Bool
        /// A child of a handler that takes leaves, with no handler of its own yet.
        var isPendingLeaf = false
    }

    /// The bounds on nesting and on one element's text this stack enforces.
    public let limits: ParseLimits
    private let root: any ElementHandler
    /// The open elements' frames, `frames[0..<frameCount]`.
    private var frames: UnsafeMutablePointer<Frame>
    /// Per depth, the box of the handler last in charge there (retained), or nil;
    /// `frameCapacity` of them.
    private var boxes: UnsafeMutablePointer<Unmanaged<HandlerBox>?>
    private var frameCapacity = 64
    private var frameCount = 0
    /// The accumulated text of the open elements, `text[0..<textCount]`.
    private var text: UnsafeMutablePointer<UInt8>
    private var textCapacity = 4096
    private var textCount = 0
    /// Depth of elements being skipped below the top frame (a handler returned nil).
    private var skipping = 0
    private var sawDocumentElement = false

    // Safety (`@exclusivity(unchecked)`): read once per event into a local (`if let
    // survey`, `survey?.`) and written only by `note` when the survey is finished,
    // never while a read is under way; a survey knows nothing of the stack, so its
    // calls cannot set this. Set it before the parse, from the parsing thread.
    /// Told of every element, skipped ones too, until it ``RecordPathSurvey/isFinished``.
    /// Set it before the parse starts.
    @exclusivity(unchecked) public var survey: RecordPathSurvey?

    /// A stack whose `root` handler takes the document element; a document with more
    /// than one is an error. Hand the stack to a parser as its receiver. One stack
    /// reads one document.
    public init(root: any ElementHandler, limits: ParseLimits = .default) {
        self.root = root
        self.limits = limits
        frames = .allocate(capacity: frameCapacity)
        boxes = .allocate(capacity: frameCapacity)
        boxes.initialize(repeating: nil, count: frameCapacity)
        text = .allocate(capacity: textCapacity)
    }

    /// The stack for one input's `mapping`: its root handler, and its
    /// ``DocumentMapping/survey`` told of every element.
    public convenience init(mapping: any DocumentMapping, limits: ParseLimits = .default) throws {
        self.init(root: try mapping.makeRootHandler(), limits: limits)
        survey = mapping.survey
    }

    deinit {
        releaseBoxes()
        frames.deallocate()
        boxes.deallocate()
        text.deallocate()
    }

    /// Current nesting depth, the document element being 1.
    public var depth: Int { frameCount + skipping }

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
    public func scalar(
        _ name: Name, kind: ContentKind, text bytes: UnsafeBufferPointer<UInt8>,
        at position: SourcePosition
    ) throws {
        if let survey, frameCount > 0 { try note(scalar: name, in: survey, at: position) }
        if skipping > 0 { return }
        let depth = frameCount + 1
        guard frameCount > 0, depth <= limits.maxDepth, bytes.count <= limits.maxTextBytes else {
            // The document element itself, or over a limit: the element events say so.
            try start(name, attributes: .none, kind: kind, at: position)
            if !bytes.isEmpty { try text(bytes, at: position) }
            return try endElement(name, at: position)
        }
        let top = frames + (frameCount - 1)
        do {
            if top.pointee.isPendingLeaf, try !giveHandler(toPendingLeaf: top) {
                skipping = 1  // its parent skipped the pending leaf this scalar is in
                return
            }
        } catch {
            throw Self.located(error, position)
        }
        top.pointee.hadChildElements = true
        var end = ElementEnd(
            name: name, text: TextBytes(bytes), startPosition: position,
            position: position, depth: depth, hadChildElements: false)
        end.kind = kind
        do {
            try top.pointee.box._withUnsafeGuaranteedRef { box in
                let parent = box.handler
                if try parent.take(scalar: end) { return }
                var element = ElementStart(name: name, attributes: .none, position: position, depth: depth)
                element.kind = kind
                guard let handler = try parent.handler(forChild: element) else { return }
                try handler.didStart(element)
                try handler.didEnd(end)
                try parent.didFinish(child: handler, element: end)
            }
        } catch {
            throw Self.located(error, position)
        }
    }

    private func start(_ name: Name, attributes: Attributes, kind: ContentKind, at position: SourcePosition) throws {
        let depth = frameCount + skipping + 1
        guard depth <= limits.maxDepth else {
            throw IngestError(
                .data, "elements nested deeper than \(limits.maxDepth) levels", position: position,
                reason: .depthLimit(limits.maxDepth))
        }
        if let survey { try note(name, depth: depth, in: survey, at: position) }
        if skipping > 0 {
            skipping += 1
            return
        }
        for attribute in attributes where attribute.value.count > limits.maxTextBytes {
            throw IngestError(
                .data, "attribute \(attribute.name) of <\(name)> is longer than \(limits.maxTextBytes) bytes",
                position: position, reason: .textLimit(limits.maxTextBytes))
        }
        var element = ElementStart(name: name, attributes: attributes, position: position, depth: depth)
        element.kind = kind
        let handler: any ElementHandler
        do {
            if frameCount == 0 {
                guard !sawDocumentElement else {
                    throw IngestError(.data, "more than one document element", position: position)
                }
                sawDocumentElement = true
                handler = root
            } else {
                let top = frames + (frameCount - 1)
                if top.pointee.isPendingLeaf, try !giveHandler(toPendingLeaf: top) {
                    skipping = 2  // its parent skipped the pending leaf, and so this child
                    return
                }
                top.pointee.hadChildElements = true
                if top.pointee.takesLeaves, kind == .markup, attributes.isEmpty {
                    return push(
                        Frame(
                            box: top.pointee.box, name: name, start: position, textStart: textCount,
                            accumulates: true, receivesText: false, hadChildElements: false, kind: kind,
                            takesLeaves: false, isPendingLeaf: true))
                }
                guard
                    let child = try top.pointee.box._withUnsafeGuaranteedRef({
                        try $0.handler.handler(forChild: element)
                    })
                else {
                    skipping = 1
                    return
                }
                handler = child
            }
            push(
                Frame(
                    box: box(for: handler, at: frameCount), name: name, start: position, textStart: textCount,
                    accumulates: handler.accumulatesText, receivesText: handler.receivesText,
                    hadChildElements: false, kind: kind, takesLeaves: handler.takesLeafChildren))
            try handler.didStart(element)
        } catch {
            throw Self.located(error, position)
        }
    }

    /// Accumulates the text for the element in charge (when it
    /// ``ElementHandler/accumulatesText``) and offers it to its
    /// ``ElementHandler/didReceive(text:)``; ignored inside a skipped element. Throws
    /// when the element's text passes ``ParseLimits/maxTextBytes``.
    public func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        try text(bytes, at: { position })
    }

    /// ``text(_:at:)`` for a parser whose positions cost a query each: `position` is
    /// asked for only when an error needs it. Most text is white space between
    /// elements, and a position per piece shows in a profile of a dry run.
    @inline(__always)
    package func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: () -> SourcePosition) throws {
        guard skipping == 0, frameCount > 0 else { return }
        let top = frames + (frameCount - 1)
        if top.pointee.accumulates {
            guard textCount - top.pointee.textStart + bytes.count <= limits.maxTextBytes else {
                throw IngestError(
                    .data, "text of <\(top.pointee.name)> exceeds \(limits.maxTextBytes) bytes", position: position(),
                    reason: .textLimit(limits.maxTextBytes))
            }
            appendText(bytes)
        }
        guard top.pointee.receivesText else { return }
        do {
            try top.pointee.box._withUnsafeGuaranteedRef { try $0.handler.didReceive(text: bytes) }
        } catch {
            throw Self.located(error, position())
        }
    }

    /// Tells the handler in charge ``ElementHandler/didEnd(_:)`` with its text, then
    /// its parent ``ElementHandler/didFinish(child:element:)``, and puts the parent
    /// back in charge.
    public func endElement(_ name: Name, at position: SourcePosition) throws {
        survey?.didEnd(depth: frameCount + skipping)
        if skipping > 0 {
            skipping -= 1
            return
        }
        guard frameCount > 0 else { return }
        frameCount -= 1
        let frame = frames + frameCount
        if frame.pointee.isPendingLeaf { return try endPendingLeaf(frame, at: position) }
        let own = UnsafeBufferPointer(start: text + frame.pointee.textStart, count: textCount - frame.pointee.textStart)
        var end = ElementEnd(
            name: frame.pointee.name, text: TextBytes(own), startPosition: frame.pointee.start,
            position: position, depth: frameCount + 1, hadChildElements: frame.pointee.hadChildElements)
        end.kind = frame.pointee.kind
        do {
            try frame.pointee.box._withUnsafeGuaranteedRef { box in
                let handler = box.handler
                try handler.didEnd(end)
                guard frameCount > 0 else { return }
                try frames[frameCount - 1].box._withUnsafeGuaranteedRef {
                    try $0.handler.didFinish(child: handler, element: end)
                }
            }
        } catch {
            throw Self.located(error, position)
        }
        textCount = frame.pointee.textStart
        if frameCount == 0 { releaseBoxes() }  // the document is done: so are its handlers
    }

    /// The pending leaf in `frame` has a child element after all: its parent is asked
    /// for its handler, which takes over the frame and hears the text so far. Returns
    /// `false`, with the frame popped, when the parent skips the element.
    private func giveHandler(toPendingLeaf frame: UnsafeMutablePointer<Frame>) throws -> Bool {
        let depth = frameCount
        let element = ElementStart(
            name: frame.pointee.name, attributes: .none, position: frame.pointee.start, depth: depth)
        guard
            let handler = try frames[depth - 2].box._withUnsafeGuaranteedRef({
                try $0.handler.handler(forChild: element)
            })
        else {
            textCount = frame.pointee.textStart
            frameCount -= 1
            return false
        }
        frame.pointee.box = box(for: handler, at: depth - 1)
        frame.pointee.isPendingLeaf = false
        frame.pointee.takesLeaves = handler.takesLeafChildren
        frame.pointee.accumulates = handler.accumulatesText
        frame.pointee.receivesText = handler.receivesText
        try handler.didStart(element)
        let textSoFar = UnsafeBufferPointer(
            start: text + frame.pointee.textStart, count: textCount - frame.pointee.textStart)
        if frame.pointee.receivesText, !textSoFar.isEmpty { try handler.didReceive(text: textSoFar) }
        if !frame.pointee.accumulates { textCount = frame.pointee.textStart }
        return true
    }

    /// A pending leaf ends as a leaf: its parent takes it whole, or, when it declines,
    /// hears it through a handler as any child.
    private func endPendingLeaf(_ frame: UnsafeMutablePointer<Frame>, at position: SourcePosition) throws {
        defer { textCount = frame.pointee.textStart }
        let own = UnsafeBufferPointer(start: text + frame.pointee.textStart, count: textCount - frame.pointee.textStart)
        let depth = frameCount + 1
        let end = ElementEnd(
            name: frame.pointee.name, text: TextBytes(own), startPosition: frame.pointee.start,
            position: position, depth: depth, hadChildElements: false)
        do {
            try frame.pointee.box._withUnsafeGuaranteedRef { box in
                let parent = box.handler
                if try parent.take(scalar: end) { return }
                let element = ElementStart(name: end.name, attributes: .none, position: end.startPosition, depth: depth)
                guard let handler = try parent.handler(forChild: element) else { return }
                try handler.didStart(element)
                if handler.receivesText, !own.isEmpty { try handler.didReceive(text: own) }
                let ended =
                    handler.accumulatesText
                    ? end
                    : ElementEnd(
                        name: end.name, text: TextBytes(UnsafeBufferPointer(start: nil, count: 0)),
                        startPosition: end.startPosition,
                        position: position, depth: depth, hadChildElements: false)
                try handler.didEnd(ended)
                try parent.didFinish(child: handler, element: ended)
            }
        } catch {
            throw Self.located(error, position)
        }
    }

    /// Tells `survey` of an element at `depth`, or lets go of it once it is finished.
    private func note(_ name: Name, depth: Int, in survey: RecordPathSurvey, at position: SourcePosition) throws {
        guard !survey.isFinished else { return self.survey = nil }
        do {
            try survey.didStart(name, depth: depth)
        } catch {
            throw Self.located(error, position)
        }
    }

    /// Tells `survey` of a JSON scalar: an element that starts and ends at once.
    private func note(scalar name: Name, in survey: RecordPathSurvey, at position: SourcePosition) throws {
        let depth = frameCount + skipping + 1
        try note(name, depth: depth, in: survey, at: position)
        survey.didEnd(depth: depth)
    }

    /// The box for `handler` at frame index `index`: the one already there when it
    /// holds the same handler (handlers are usually reused element after element),
    /// else a new one, which replaces (and releases) it.
    private func box(for handler: any ElementHandler, at index: Int) -> Unmanaged<HandlerBox> {
        if index == frameCapacity { grow() }
        if let box = boxes[index],
            box._withUnsafeGuaranteedRef({ ObjectIdentifier($0.handler) == ObjectIdentifier(handler) })
        {
            return box
        }
        boxes[index]?.release()
        let box = Unmanaged.passRetained(HandlerBox(handler))
        boxes[index] = box
        return box
    }

    private func releaseBoxes() {
        for index in 0..<frameCapacity {
            boxes[index]?.release()
            boxes[index] = nil
        }
    }

    private func push(_ frame: Frame) {
        if frameCount == frameCapacity { grow() }
        (frames + frameCount).initialize(to: frame)
        frameCount += 1
    }

    /// Doubles the room for frames and boxes (the frames' pointers are not kept across
    /// a push, so moving them is safe).
    private func grow() {
        let larger = UnsafeMutablePointer<Frame>.allocate(capacity: frameCapacity * 2)
        larger.moveInitialize(from: frames, count: frameCount)
        frames.deallocate()
        frames = larger
        let largerBoxes = UnsafeMutablePointer<Unmanaged<HandlerBox>?>.allocate(capacity: frameCapacity * 2)
        largerBoxes.moveInitialize(from: boxes, count: frameCapacity)
        (largerBoxes + frameCapacity).initialize(repeating: nil, count: frameCapacity)
        boxes.deallocate()
        boxes = largerBoxes
        frameCapacity *= 2
    }

    private func appendText(_ bytes: UnsafeBufferPointer<UInt8>) {
        if textCount + bytes.count > textCapacity {
            var capacity = textCapacity * 2
            while capacity < textCount + bytes.count { capacity *= 2 }
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            larger.update(from: text, count: textCount)
            text.deallocate()
            text = larger
            textCapacity = capacity
        }
        if let base = bytes.baseAddress { (text + textCount).update(from: base, count: bytes.count) }
        textCount += bytes.count
    }

    private static func located(_ error: any Error, _ position: SourcePosition) -> IngestError {
        if var error = error as? IngestError {
            if error.position == nil { error.position = position }
            return error
        }
        return IngestError(.data, "\(error)", position: position)
    }
}

/// A handler held strongly in a `let`, so that a call through a borrowed box borrows
/// the handler too: no reference counting per call, which a handler loaded from an
/// unowned reference or from memory would cost (measured in BENCHMARKS.md).
private final class HandlerBox {
    let handler: any ElementHandler
    init(_ handler: any ElementHandler) { self.handler = handler }
}

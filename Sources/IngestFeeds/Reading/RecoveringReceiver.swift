import IngestCore

/// Passes parse events on, remembering which elements are open, so that when a
/// document read in recovering mode stops before its end tags (a truncated feed),
/// ``closeOpenElements(at:)`` ends them — and the item being read is delivered
/// with what it had.
final class RecoveringReceiver: ParseEventReceiver {
    private let target: any ParseEventReceiver
    // Safety: one thread, no reentrance (IngestCore's UnsafeCode article): the parser
    // calls the receiver from one thread, and nothing it calls calls back into it.
    @exclusivity(unchecked) private var open: [Name] = []

    init(forwardingTo target: any ParseEventReceiver) {
        self.target = target
    }

    func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
        open.append(name)
        try target.startElement(name, attributes: attributes, at: position)
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        try target.text(bytes, at: position)
    }

    func endElement(_ name: Name, at position: SourcePosition) throws {
        if !open.isEmpty { open.removeLast() }
        try target.endElement(name, at: position)
    }

    /// Ends every element still open, innermost first.
    func closeOpenElements(at position: SourcePosition) throws {
        while let name = open.popLast() {
            try target.endElement(name, at: position)
        }
    }
}

/// Two handlers in charge of one element: each hears every event of it, and each
/// child goes to whichever of them wants it — to both, through another pair. This
/// is how an element that is a record of one entity and on the way to another's
/// records (`rss/channel` and `rss/channel/item`) in a mapping schema serves both.
package final class HandlerPair: ElementHandler {
    package let first: any ElementHandler
    package let second: any ElementHandler
    /// The handlers each side gave the child element being read.
    private var child: (first: (any ElementHandler)?, second: (any ElementHandler)?) = (nil, nil)

    package init(_ first: any ElementHandler, _ second: any ElementHandler) {
        self.first = first
        self.second = second
    }

    package var accumulatesText: Bool { first.accumulatesText || second.accumulatesText }

    package func didStart(_ element: ElementStart) throws {
        try first.didStart(element)
        try second.didStart(element)
    }

    package func didReceive(text: UnsafeBufferPointer<UInt8>) throws {
        try first.didReceive(text: text)
        try second.didReceive(text: text)
    }

    package func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        child = (try first.handler(forChild: element), try second.handler(forChild: element))
        switch child {
        case (nil, nil): return nil
        case (let one?, nil): return one
        case (nil, let other?): return other
        case (let one?, let other?): return HandlerPair(one, other)
        }
    }

    package func didFinish(child finished: any ElementHandler, element: ElementEnd) throws {
        if let one = child.first { try first.didFinish(child: one, element: element) }
        if let other = child.second { try second.didFinish(child: other, element: element) }
        child = (nil, nil)
    }

    package func didEnd(_ element: ElementEnd) throws {
        try first.didEnd(element)
        try second.didEnd(element)
    }

    /// A JSON scalar: each side takes it whole, or hears it as a child element.
    package func take(scalar element: ElementEnd) throws -> Bool {
        for side in [first, second] where try !side.take(scalar: element) {
            var start = ElementStart(
                name: element.name, attributes: .none, position: element.startPosition, depth: element.depth)
            start.kind = element.kind
            guard let handler = try side.handler(forChild: start) else { continue }
            try handler.didStart(start)
            try handler.didEnd(element)
            try side.didFinish(child: handler, element: element)
        }
        return true
    }
}

/// Neuburg's "plain vanilla" delegate: it skips child elements and lets the stack
/// accumulate its text, which the parent reads in
/// ``ElementHandler/didFinish(child:element:)`` as `element.text`.
///
/// It keeps no state, so one shared instance serves any number of elements.
public final class TextHandler: ElementHandler {
    /// A text handler; one instance may be returned for any number of children.
    public init() {}

    /// The stack accumulates the text; nothing else is done with it here.
    public var receivesText: Bool { false }
}

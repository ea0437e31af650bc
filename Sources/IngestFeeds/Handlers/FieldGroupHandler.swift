import IngestCore

/// A small element whose children are text fields of the core vocabulary: an RSS
/// `<image>` (title, url), an Atom `<author>` (name, email, uri), a `<skipHours>`
/// list. Each child that ``Reads`` accepts is read as text and handed to
/// ``Assign`` with its kind, building a fresh ``value`` for every such element.
///
/// The one skeleton the RSS and Atom handlers of these elements share; each
/// format gives it what to read and where the text goes.
final class FieldGroupHandler<Value>: FeedSectionHandler {
    /// Whether a child of kind `child`, inside an element of kind `element`, is read.
    typealias Reads = (_ element: FeedTerm.Kind, _ child: FeedTerm.Kind) -> Bool
    /// Puts the text `field` read (a child of kind `kind`) into the value.
    typealias Assign = (_ value: inout Value, _ kind: FeedTerm.Kind, _ field: TextFieldHandler) throws -> Void

    // Safety: the session outlives the handlers that hold it unowned (FeedParseSession
    // says why), and a handler's state is used by the parsing thread alone, with no
    // call out that could call back into it (IngestCore's UnsafeCode article).
    unowned(unsafe) let session: FeedParseSession
    private lazy var field = TextFieldHandler(session: session)
    private let empty: Value
    private let reads: Reads
    private let assign: Assign
    /// The kind of the element being read.
    private var elementKind = FeedTerm.Kind.other
    /// What the last element read gave.
    private(set) var value: Value

    init(session: FeedParseSession, empty: Value, reads: @escaping Reads, assign: @escaping Assign) {
        self.session = session
        self.empty = empty
        self.reads = reads
        self.assign = assign
        value = empty
    }

    func didStart(_ element: ElementStart) throws {
        value = empty
        elementKind = session.vocabulary.term(element.name).kind
        try session.enter(element)
    }

    func handler(forChild element: ElementStart) -> (any ElementHandler)? {
        let term = session.vocabulary.term(element.name)
        guard term.space == .core, reads(elementKind, term.kind) else { return nil }
        return field.reading()
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        try assign(&value, session.vocabulary.term(element.name).kind, field)
    }
}

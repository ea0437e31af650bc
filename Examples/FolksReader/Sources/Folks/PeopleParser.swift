import IngestCore

/// Neuburg's `MyPeopleParser`, the handler of the document element: it starts the
/// list on `<people>`, gives each `<person>` to a ``PersonParser`` and collects the
/// ``Person`` each one hands back.
public final class PeopleParser: ElementParser {
    /// The people read so far, in document order.
    public private(set) var people: [Person] = []

    public override func didStart(_ element: ElementStart) throws {
        try super.didStart(element)
        if element.name.local == "people" { people = [] }
    }

    /// A `<person>` gets a ``PersonParser``; anything else is skipped.
    public override func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        element.name.local == "person" ? PersonParser() : nil
    }

    /// The person parser is done: its person joins the list.
    public override func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        guard let child = child as? PersonParser else { return }
        people.append(child.person)
    }
}

import IngestCore

/// Neuburg's `MyPersonParser`: each child element of a `<person>` goes to a plain
/// ``ElementParser``, whose text then sets the ``Person`` property of the same name.
public final class PersonParser: ElementParser {
    /// The person parsed so far.
    public private(set) var person = Person()

    /// Every child is parsed by a plain element parser, which keeps its text.
    public override func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        ElementParser()
    }

    /// Neuburg's key–value coding: the child's element name picks the property its
    /// text goes to. An element `Person` has no property for is left out.
    public override func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        guard let child = child as? ElementParser else { return }
        person.setValue(child.text, forKey: child.name)
    }
}

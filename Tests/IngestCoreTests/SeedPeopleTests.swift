import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// The seed's example, handler for handler: `MyPeopleParser` and `MyPersonParser`.
struct Person: Equatable {
    var firstName = ""
    var lastName = ""
}

final class PeopleHandler: ElementHandler {
    var people: [Person] = []
    func handler(forChild element: ElementStart) -> (any ElementHandler)? {
        ["person", "item"].contains(element.name.local) ? PersonHandler() : nil
    }
    func didFinish(child: any ElementHandler, element: ElementEnd) {
        people.append((child as! PersonHandler).person)
    }
}

final class PersonHandler: ElementHandler {
    var person = Person()
    func handler(forChild element: ElementStart) -> (any ElementHandler)? { TextHandler() }
    func didFinish(child: any ElementHandler, element: ElementEnd) {
        switch element.name.local {
        case "firstName": person.firstName = element.text.string
        case "lastName": person.lastName = element.text.string
        default: break
        }
    }
}

/// folks.json's top-level object, as Documentation/Library.md shows it.
final class FolksHandler: ElementHandler {
    let people = PeopleHandler()
    func handler(forChild element: ElementStart) -> (any ElementHandler)? {
        element.name.local == "people" ? people : nil
    }
}

@Suite struct SeedPeopleTests {
    @Test func folksJSONBecomesTheSameThreePeopleThroughTheSameHandlers() throws {
        let folks = FolksHandler()
        try JSONParser(documentName: "folks").parse(
            InputFile(path: packageRoot.appendingPathComponent("Samples/folks.json").path),
            into: HandlerStack(root: folks))
        #expect(folks.people.people == seedPeople)
    }

    let seedPeople = [
        Person(firstName: "Matt", lastName: "Neuburg"),
        Person(firstName: "Snidely", lastName: "Whiplash"),
        Person(firstName: "Dudley", lastName: "Doright")
    ]

    @Test func folksXMLBecomesThreePeopleThroughExpat() throws {
        let people = PeopleHandler()
        try ExpatParser().parse(InputFile(path: folksURL.path), into: HandlerStack(root: people))
        #expect(people.people == seedPeople)
    }

    @Test func folksXMLParsedOneByteAtATimeGivesTheSamePeople() throws {
        let people = PeopleHandler()
        try ExpatParser(chunkSize: 1).parse(InputFile(path: folksURL.path), into: HandlerStack(root: people))
        #expect(people.people == seedPeople)
    }

    @Test func handlersWorkWithHandMadeEvents() throws {
        let people = PeopleHandler()
        let harness = HandlerHarness(root: people)
        try harness.start("people")
        try harness.start("person")
        try harness.element("firstName", text: "Matt")
        try harness.start("lastName")
        try harness.text("Neu")
        try harness.text("burg")
        try harness.end("lastName")
        try harness.end("person")
        try harness.end("people")
        #expect(people.people == [Person(firstName: "Matt", lastName: "Neuburg")])
    }
}

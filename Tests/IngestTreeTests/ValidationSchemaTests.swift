import Foundation
import Testing
@testable import IngestTree
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ValidationSchemaTests {
    static let xsd = packageRoot.appendingPathComponent("Schemas/folks.xsd").path
    static let rng = packageRoot.appendingPathComponent("Schemas/folks.rng").path

    /// folks.xml with a blank first name (line 8), an unexpected nickname (10) and an
    /// unexpected human (12); shared with the command-line validation tests.
    static let badFolks = try! String(
        contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/folks-invalid.xml"), encoding: .utf8)

    /// Validates `xml` (written to a file) against the schema at `schema`.
    func validate(_ xml: String, against schema: String, limit: Int = 20) throws -> ValidationReport {
        let directory = try TemporaryDirectory()
        let path = directory.path("doc.xml")
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        return try ValidationSchema(contentsOf: schema).validate(InputFile(path: path), keepingAtMost: limit)
    }

    func writeSchema(_ text: String, named name: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [xsd, rng])
    func folksIsValid(schema: String) throws {
        let report = try ValidationSchema(contentsOf: schema).validate(InputFile(path: folksURL.path))
        #expect(report.isValid, "\(report.problems)")
        #expect(report.problems == [])
        #expect(report.file == folksURL.path)
    }

    @Test func xmlSchemaListsEveryProblemWithItsLine() throws {
        let report = try validate(Self.badFolks, against: Self.xsd)
        #expect(!report.isValid)
        #expect(report.problemCount == 3)
        #expect(report.problems.map(\.line) == [8, 10, 12])
        #expect(report.problems[1].message == "Element 'nickname': This element is not expected.")
        #expect(
            report.problems[0].description.hasSuffix(
                "doc.xml:8: Element 'firstName': [facet 'pattern'] The value '  ' is not accepted by the pattern '.*\\S.*'."
            ),
            "\(report.problems[0])")
        let error = report.error
        #expect(error.kind == .data)
        #expect(error.message.hasPrefix("not valid against \(Self.xsd) (3 problems)"))
    }

    @Test func relaxNGFindsTheSameThreePlaces() throws {
        let report = try validate(Self.badFolks, against: Self.rng)
        #expect(!report.isValid)
        #expect(Set(report.problems.map(\.line)) == [8, 10, 12])
    }

    @Test func theListIsCappedButTheCountIsNot() throws {
        let people = String(repeating: "<person><firstName>A</firstName></person>\n", count: 30)
        let report = try validate("<people>\n\(people)</people>", against: Self.xsd, limit: 20)
        #expect(report.problems.count == 20)
        #expect(report.problemCount == 30)
        #expect(report.error.message.hasSuffix("… and 10 more"))
    }

    @Test func malformedInputIsAProblemWithLineAndColumn() throws {
        let report = try validate(
            "<people>\n  <person><firstName>Matt</lastName></person>\n</people>", against: Self.xsd)
        #expect(!report.isValid)
        let first = try #require(report.problems.first)
        #expect(first.line == 2)
        #expect(first.column > 0)
        #expect(first.message.contains("mismatch"))
    }

    @Test func xmlSchemaChecksWhatInternalEntitiesHold() throws {
        let doc = """
            <!DOCTYPE people [<!ENTITY blank "  "><!ENTITY dud "Dudley">]>
            <people>
            <person><firstName>&dud;</firstName><lastName>Doright</lastName></person>
            <person><firstName>&blank;</firstName><lastName>Doright</lastName></person>
            </people>
            """
        let report = try validate(doc, against: Self.xsd)
        #expect(report.problems.map(\.line) == [4], "\(report.problems)")
    }

    @Test func relaxNGRefusesDocumentsThatDeclareEntities() throws {
        let doc = """
            <!DOCTYPE people [<!ENTITY dud "Dudley">]>
            <people><person><firstName>&dud;</firstName><lastName>Doright</lastName></person></people>
            """
        let report = try validate(doc, against: Self.rng)
        #expect(report.problemCount == 1)
        #expect(report.problems.first?.message.contains("declares entities (dud)") == true, "\(report.problems)")
        #expect(report.problems.first?.message.contains("XML Schema (.xsd)") == true)
    }

    @Test func anExternalEntityIsAProblemAndNeverLoaded() throws {
        let doc = """
            <!DOCTYPE people [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <people><person><firstName>&xxe;</firstName><lastName>x</lastName></person></people>
            """
        let report = try validate(doc, against: Self.xsd)
        #expect(!report.isValid)
        #expect(
            report.problems.contains {
                $0.line == 2 && $0.message.contains("external entity \"file:///etc/passwd\" refused")
            },
            "\(report.problems)")
        #expect(!report.error.message.contains("root:"))
    }

    @Test func schemaNamesAndFilesAreChecked() throws {
        let directory = try TemporaryDirectory()
        let unknown = #expect(throws: IngestError.self) { try ValidationSchema(contentsOf: "folks.dtd") }
        #expect(unknown?.kind == .usage)
        let missing = #expect(throws: IngestError.self) { try ValidationSchema(contentsOf: directory.path("none.xsd")) }
        #expect(missing?.kind == .input)
        let broken = try writeSchema(
            """
            <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
              <xs:element name="a" type="xs:nonsense"/>
            </xs:schema>
            """, named: "broken.xsd", in: directory)
        let error = #expect(throws: IngestError.self) { try ValidationSchema(contentsOf: broken) }
        #expect(error?.kind == .usage)
        #expect(error?.message.contains("does not compile as an XML Schema") == true)
        #expect(error?.message.contains("broken.xsd:2: element decl. 'a'") == true, "\(String(describing: error))")
        let notXML = try writeSchema("<grammar", named: "bad.rng", in: directory)
        let rngError = #expect(throws: IngestError.self) { try ValidationSchema(contentsOf: notXML) }
        #expect(rngError?.message.contains("does not compile as a RELAX NG schema") == true)
    }

    @Test func aSchemaIsNeverFetchedFromTheNetwork() throws {
        // A listening socket nobody should connect to.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        #expect(bound)
        let port = UInt16(bigEndian: address.sin_port)
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)

        let loader = SchemaLoading.currentLoader
        let directory = try TemporaryDirectory()
        let schema = try writeSchema(
            """
            <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
              <xs:import namespace="urn:x" schemaLocation="http://127.0.0.1:\(port)/x.xsd"/>
              <xs:element name="people" type="xs:string"/>
            </xs:schema>
            """, named: "net.xsd", in: directory)
        let error = #expect(throws: IngestError.self) { try ValidationSchema(contentsOf: schema) }
        #expect(error?.kind == .usage)
        #expect(error?.message.contains("Attempt to load network entity") == true, "\(String(describing: error))")
        #expect(error?.message.contains("never uses the network") == true)
        let connection = accept(listener, nil, nil)
        #expect(connection < 0, "libxml2 connected to the schema's location")
        if connection >= 0 { close(connection) }
        #expect(SchemaLoading.currentLoader == loader, "the process-wide loader is put back")
    }
}

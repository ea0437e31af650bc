import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import IngestCore
import IngestParsers
import IngestFiles
import IngestTestSupport
import Testing

/// Random table and field names that an XML property list cannot keep apart as they
/// are (see ``NameCase``): in an XML plist, an XML keyed archive and JSON, every
/// value comes back once, each field's values under one key of their own, and the
/// same document gives the same file.
@Suite("Names: file outputs")
struct FileNamePropertyTests {
    @Test("Every value under exactly one key", arguments: ["plist", "archive", "json"])
    func everyValueUnderOneKey(output: String) throws {
        let directory = try TemporaryDirectory()
        let format: FileOutput.Format =
            switch output {
            case "plist": .propertyList(.xml)
            case "archive": .keyedArchive(.xml)
            default: .json
            }
        for seed in UInt64(0)..<80 {
            let document = NameCase(seed: seed)
            let input = directory.path("\(seed).json")
            try document.json.write(toFile: input, atomically: false, encoding: .utf8)
            var files: [Data] = []
            for run in 0..<2 {
                let path = directory.path("\(seed)-\(run).\(output)")
                try Importer().run([InputFile(path: input)], into: FileOutput(path: path, format: format))
                files.append(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
            let stored =
                switch output {
                case "plist": try Self.plistValues(files[0])
                case "archive": try Self.archiveValues(files[0])
                default: try Self.jsonValues(files[0])
                }
            #expect(document.problems(in: stored) == [], "\(document)")
            #expect(files[0] == files[1], "the same names in every run: \(document)")
        }
    }

    /// The values of an XML plist: a root array of records (one table) or a
    /// dictionary of such arrays by table.
    static func plistValues(_ data: Data) throws -> [NameCase.Stored] {
        let root = try XMLTree.parse(data).children[0]
        let tables: [(key: String, value: XMLTree.Node)] = root.name == "dict" ? root.dictionary : [("", root)]
        return tables.flatMap { table, records in
            records.children.flatMap { record in
                record.dictionary.compactMap { key, value in
                    value.name == "integer" ? NameCase.Stored(table: table, name: key, value: Int(value.text)!) : nil
                }
            }
        }
    }

    /// The values of an XML keyed archive: the fields of the root array's objects,
    /// each object's table told by its class entry.
    static func archiveValues(_ data: Data) throws -> [NameCase.Stored] {
        let archive = try XMLTree.parse(data).children[0].dictionary
        let objects = try #require(archive.first { $0.key == "$objects" }?.value.children)
        let root = objects[1].dictionary
        let records = try #require(root.first { $0.key == "NS.objects" }?.value.children)
        return records.flatMap { reference in
            let fields = objects[reference.uid].dictionary
            let table = fields.first { $0.key == "$class" }.map { String($0.value.uid) } ?? "?"
            return fields.compactMap { key, value in
                value.name == "integer" ? NameCase.Stored(table: table, name: key, value: Int(value.text)!) : nil
            }
        }
    }

    /// The values of JSON output: an array of records (one table) or an object of
    /// such arrays by table. Read by ingest's own JSON reader, which keeps every key
    /// as written (Foundation's folds canonically equivalent keys into one).
    static func jsonValues(_ data: Data) throws -> [NameCase.Stored] {
        let root = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
        let tables: [(key: String, value: JSONValue)] =
            if case .object(let members) = root { members } else { [("", root)] }
        return tables.flatMap { table, records -> [NameCase.Stored] in
            guard case .array(let items) = records else { return [] }
            return items.flatMap { record -> [NameCase.Stored] in
                guard case .object(let fields) = record else { return [] }
                return fields.compactMap { key, value in
                    guard case .number(let text) = value else { return nil }
                    return NameCase.Stored(table: table, name: key, value: Int(text)!)
                }
            }
        }
    }
}

/// An XML document as a tree of elements, read by Foundation's parser: enough to
/// read a property list's keys exactly as written (Foundation's property list
/// reader folds canonically equivalent keys into one).
final class XMLTree: NSObject, XMLParserDelegate {
    final class Node {
        let name: String
        var text = ""
        var children: [Node] = []

        init(name: String) { self.name = name }

        /// A `<dict>`'s entries: each `<key>` with the element after it.
        var dictionary: [(key: String, value: Node)] {
            stride(from: 0, to: children.count - 1, by: 2).map { (children[$0].text, children[$0 + 1]) }
        }

        /// A keyed archive's reference, `<dict><key>CF$UID</key><integer>n</integer></dict>`.
        var uid: Int { Int(children[1].text) ?? -1 }
    }

    private var stack = [Node(name: "")]

    static func parse(_ data: Data) throws -> Node {
        let tree = XMLTree()
        let parser = XMLParser(data: data)
        parser.delegate = tree
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.propertyListReadCorrupt) }
        return tree.stack[0]
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        stack.append(Node(name: elementName))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        let node = stack.removeLast()
        if node.name == "plist" {
            stack[stack.count - 1].children.append(contentsOf: node.children)
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack[stack.count - 1].text += string
    }
}

import IngestCore
import IngestParsers
import CLibXML2

/// A compiled XML Schema (`.xsd`) or RELAX NG schema (`.rng`, XML syntax) that
/// inputs are checked against before they are imported — `--validate` on the
/// command line.
///
/// ```swift
/// let schema = try ValidationSchema(contentsOf: "Schemas/folks.xsd")
/// let report = try schema.validate(InputFile(path: "Samples/folks.xml"))
/// report.isValid                      // true
/// try schema.check(InputFile(path: "bad.xml"))   // throws, listing the problems
/// ```
///
/// **Streaming.** Validation reads the input once. An XML Schema validates while
/// libxml2's push parser reads (the validator plugged into its SAX callbacks, see
/// `XMLSchemaStream`): memory stays flat, and entity expansion is bounded as in
/// every other mode (`EntityExpansionBudget`). RELAX NG reads through libxml2's
/// `xmlTextReader`, which keeps only the current element's ancestors, except where a
/// pattern needs a whole element at once (libxml2 then builds that element's
/// subtree); libxml2's own limits apply there: nesting up to 256 levels, a text node
/// up to 10 MB.
///
/// **Safety.** As for every ingest parser: no network, no external DTD, no external
/// entity — a reference to one is a problem, never loaded. Internal entities are
/// checked by their content for XML Schema. libxml2's RELAX NG validator cannot see
/// inside entity references without substituting external entities too, so a
/// document that declares entities is refused for RELAX NG with a problem that says
/// so, rather than validated wrongly. Compiling a schema may read the local files it
/// includes or imports, never a network location (see `SchemaLoading`).
public final class ValidationSchema {
    /// The schema language, told by the file's extension.
    public enum Kind: String, Sendable {
        /// W3C XML Schema, a `.xsd` file.
        case xmlSchema = "XML Schema"
        /// RELAX NG in its XML syntax, a `.rng` file.
        case relaxNG = "RELAX NG"

        /// `.xsd` or `.rng` (any case); `nil` for anything else.
        public init?(path: String) {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            guard let dot = name.lastIndex(of: ".") else { return nil }
            switch name[name.index(after: dot)...].lowercased() {
            case "xsd": self = .xmlSchema
            case "rng": self = .relaxNG
            default: return nil
            }
        }
    }

    /// The schema language, from the file's extension.
    public let kind: Kind
    /// The schema's path, as given.
    public let path: String
    private let xmlSchema: xmlSchemaPtr?
    private let relaxNG: xmlRelaxNGPtr?

    /// Reads and compiles the schema at `path`. Errors: `.usage` (exit 64) for a name
    /// that is neither `.xsd` nor `.rng` and for a schema that does not compile (with
    /// libxml2's messages); `.input` (66) when the file cannot be opened.
    public init(contentsOf path: String) throws {
        guard let kind = Kind(path: path) else {
            throw IngestError(
                .usage,
                "a validation schema is an XML Schema (.xsd) or a RELAX NG schema in XML syntax (.rng); cannot tell what \(path) is"
            )
        }
        self.kind = kind
        self.path = path
        _ = try InputFile(path: path)  // missing or unreadable: exit 66, with the reason
        XMLTree.initializeLibrary
        let diagnostics = LibXML2Diagnostics()
        switch kind {
        case .xmlSchema:
            xmlSchema = diagnostics.capturing {
                SchemaLoading.withoutNetwork {
                    guard let context = xmlSchemaNewParserCtxt(path) else { return nil }
                    defer { xmlSchemaFreeParserCtxt(context) }
                    return xmlSchemaParse(context)
                }
            }
            relaxNG = nil
            if xmlSchema == nil || diagnostics.errorCount > 0 { throw Self.compileError(kind, path, diagnostics) }
        case .relaxNG:
            relaxNG = diagnostics.capturing {
                SchemaLoading.withoutNetwork {
                    guard let context = xmlRelaxNGNewParserCtxt(path) else { return nil }
                    defer { xmlRelaxNGFreeParserCtxt(context) }
                    return xmlRelaxNGParse(context)
                }
            }
            xmlSchema = nil
            if relaxNG == nil || diagnostics.errorCount > 0 { throw Self.compileError(kind, path, diagnostics) }
        }
    }

    deinit {
        if let xmlSchema { xmlSchemaFree(xmlSchema) }
        if let relaxNG { xmlRelaxNGFree(relaxNG) }
    }

    /// Reads all of `input` and reports every problem: validity errors and
    /// well-formedness errors, as `file:line[:column]` with libxml2's message, the
    /// first `limit` of them kept. Throws only when the input cannot be read (`.io`).
    public func validate(_ input: InputFile, keepingAtMost limit: Int = 20) throws -> ValidationReport {
        let diagnostics = LibXML2Diagnostics(keep: limit)
        let source = LibXML2InputSource(input)
        var valid = true
        if kind == .xmlSchema, let xmlSchema {
            valid = try diagnostics.capturing {
                try XMLSchemaStream(schema: xmlSchema, diagnostics: diagnostics, displayName: input.displayName)
                    .validate(input)
            }
        } else {
            diagnostics.capturing {
                guard
                    let reader = xmlReaderForIO(
                        LibXML2InputSource.read, nil, source.context, input.displayName, nil,
                        XMLTree.parseOptions)
                else {
                    diagnostics.add(
                        .init(
                            level: Int(XML_ERR_FATAL.rawValue), code: 0, domain: 0,
                            message: "libxml2 could not start reading", line: 0, column: 0, offset: 0))
                    return
                }
                defer { xmlFreeTextReader(reader) }
                let attached =
                    kind == .xmlSchema
                    ? xmlTextReaderSetSchema(reader, xmlSchema)
                    : xmlTextReaderRelaxNGSetSchema(reader, relaxNG)
                guard attached == 0 else {
                    diagnostics.add(
                        .init(
                            level: Int(XML_ERR_FATAL.rawValue), code: 0, domain: 0,
                            message: "libxml2 could not attach the schema", line: 0, column: 0, offset: 0))
                    return
                }
                var sawElement = false
                var expansion = EntityExpansionBudget()
                var sizes: EntityExpansionSizes?
                while xmlTextReaderRead(reader) == 1 {
                    // What the entity references read so far expand to: past the bound
                    // every mode applies, validating further would only expand more.
                    if let over = Self.spendExpansion(reader, &expansion, &sizes, inputBytes: source.consumed) {
                        diagnostics.add(over)
                        return
                    }
                    switch xmlTextReaderNodeType(reader) {
                    case Int32(XML_READER_TYPE_ELEMENT.rawValue) where !sawElement:
                        sawElement = true
                        if kind == .relaxNG, let declared = Self.declaredEntities(reader), !declared.isEmpty {
                            // Whatever RELAX NG said so far may be wrong: say why instead.
                            diagnostics.removeAll()
                            diagnostics.add(
                                .init(
                                    level: Int(XML_ERR_ERROR.rawValue), code: 0, domain: 0,
                                    message:
                                        "the document declares entities (\(declared.joined(separator: ", "))); libxml2's RELAX NG validator cannot see inside entity references without also loading external entities, which ingest never does. Validate it against an XML Schema (.xsd) instead, or expand its entities first",
                                    line: 0, column: 0, offset: 0))
                            return
                        }
                    case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
                        if let refusal = Self.externalEntity(reader) { diagnostics.add(refusal) }
                    default:
                        break
                    }
                }
                valid = xmlTextReaderIsValid(reader) == 1
            }
        }
        // libxml2 held `source.context` unretained while it read: the source lives until here.
        withExtendedLifetime(source) {}
        if let failure = source.failure { throw failure }
        var problems = diagnostics.errors.map {
            ValidationProblem(file: input.displayName, line: $0.line, column: $0.column, message: $0.message)
        }
        var count = diagnostics.errorCount
        if count == 0, !valid {
            problems = [
                ValidationProblem(
                    file: input.displayName, line: 0, column: 0, message: "not valid (libxml2 gave no reason)")
            ]
            count = 1
        }
        return ValidationReport(file: input.displayName, schema: path, problems: problems, problemCount: count)
    }

    /// Validates `input` and throws the report's `.data` error (exit 65) unless it is
    /// valid.
    public func check(_ input: InputFile, listing limit: Int = 20) throws {
        let report = try validate(input, keepingAtMost: limit)
        if !report.isValid { throw report.error }
    }

    /// Counts the entity references of the reader's node — an entity reference, or an
    /// element's attribute values — against `budget`; the problem to report once
    /// over it (see ``EntityExpansionBudget``).
    private static func spendExpansion(
        _ reader: xmlTextReaderPtr, _ budget: inout EntityExpansionBudget,
        _ sizes: inout EntityExpansionSizes?, inputBytes: Int
    ) -> LibXML2Diagnostics.Report? {
        let type = xmlTextReaderNodeType(reader)
        guard
            type == Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue) || type == Int32(XML_READER_TYPE_ELEMENT.rawValue),
            let node = xmlTextReaderCurrentNode(reader), let document = node.pointee.doc
        else { return nil }
        var references: [xmlNodePtr] = []
        if node.pointee.type == XML_ENTITY_REF_NODE {
            references.append(node)
        } else {
            var attribute = node.pointee.properties
            while let property = attribute {
                var child = property.pointee.children
                while let part = child {
                    if part.pointee.type == XML_ENTITY_REF_NODE { references.append(part) }
                    child = part.pointee.next
                }
                attribute = property.pointee.next
            }
        }
        for reference in references {
            guard let name = reference.pointee.name else { continue }
            if sizes == nil { sizes = EntityExpansionSizes(document: document) }
            if !budget.spend(sizes!.size(of: name), inputBytes: inputBytes) {
                return .init(
                    level: Int(XML_ERR_FATAL.rawValue), code: 0, domain: 0, message: EntityExpansionBudget.message,
                    line: Int(xmlGetLineNo(node)), column: 0, offset: 0)
            }
        }
        return nil
    }

    /// A problem for an entity reference at the reader when the entity is external.
    private static func externalEntity(_ reader: xmlTextReaderPtr) -> LibXML2Diagnostics.Report? {
        guard let node = xmlTextReaderCurrentNode(reader),
            let entity = xmlGetDocEntity(node.pointee.doc, node.pointee.name),
            entity.pointee.etype != XML_INTERNAL_GENERAL_ENTITY
        else { return nil }
        return .init(
            level: Int(XML_ERR_ERROR.rawValue), code: 0, domain: 0,
            message: ExternalEntity.refusal(entity, name: node.pointee.name),
            line: Int(xmlGetLineNo(node)), column: 0, offset: 0)
    }

    /// The names of the general entities the document's internal subset declares.
    private static func declaredEntities(_ reader: xmlTextReaderPtr) -> [String]? {
        guard let node = xmlTextReaderCurrentNode(reader), let document = node.pointee.doc,
            let subset = document.pointee.intSubset, let table = subset.pointee.entities
        else { return nil }
        final class Names { var list: [String] = [] }
        let names = Names()
        // Safety: `xmlHashScan` calls back only before it returns, and
        // `withExtendedLifetime` keeps the unretained `names` alive until then.
        withExtendedLifetime(names) {
            xmlHashScan(
                OpaquePointer(table),
                { _, data, name in
                    guard let data, let name else { return }
                    Unmanaged<Names>.fromOpaque(data).takeUnretainedValue().list.append(String(cString: name))
                }, Unmanaged.passUnretained(names).toOpaque())
        }
        return names.list.sorted()
    }

    private static func compileError(_ kind: Kind, _ path: String, _ diagnostics: LibXML2Diagnostics) -> IngestError {
        let errors = diagnostics.errors
        var message = "does not compile as \(kind == .xmlSchema ? "an XML Schema" : "a RELAX NG schema")"
        if errors.isEmpty { return IngestError(.usage, message, file: path) }
        message += ":"
        for report in errors.prefix(20) {
            let problem = ValidationProblem(
                file: path, line: report.line, column: report.column, message: report.message)
            message += "\n  \(problem)"
        }
        if diagnostics.errorCount > 20 { message += "\n  … and \(diagnostics.errorCount - 20) more" }
        if errors.contains(where: { $0.code == Int(XML_IO_NETWORK_ATTEMPT.rawValue) }) {
            message += "\n  ingest never uses the network: save the schema it names and point its location at the copy"
        }
        return IngestError(.usage, message, file: path)
    }
}

import IngestCore
import CLibXML2

extension XMLTree {
    /// What an XPath expression evaluates to.
    public enum XPathValue: Hashable {
        /// A node set, in document order.
        case nodes([Node])
        /// A boolean: `count(//person) > 2`.
        case boolean(Bool)
        /// A number (XPath's are doubles): `count(//person)`.
        case number(Double)
        /// A string: `string(//person[1]/lastName)`.
        case string(String)

        /// For messages: "a number (3)", "2 nodes"…
        public var kindDescription: String {
            switch self {
            case .nodes(let nodes): nodes.count == 1 ? "1 node" : "\(nodes.count) nodes"
            case .boolean(let value): "a boolean (\(value))"
            case .number(let value):
                "a number (\(value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)))"
            case .string(let value): "a string (\"\(value)\")"
            }
        }
    }

    /// Evaluates an XPath 1.0 expression with the document as the context node.
    ///
    /// Prefixed names in the expression need their prefixes bound in `namespaces`
    /// (prefix → namespace URI); XPath 1.0 has no default namespace, so an element in a
    /// default namespace is matched through a prefix of your choosing:
    ///
    /// ```swift
    /// // <feed xmlns="http://www.w3.org/2005/Atom"><entry>…
    /// try tree.evaluate("//a:entry", namespaces: ["a": "http://www.w3.org/2005/Atom"])
    /// ```
    ///
    /// Errors are `.usage` for the expression's faults: invalid syntax (with
    /// libxml2's message and the character where it went wrong), a prefix that is not
    /// bound, an unknown function. One that needs more than libxml2 allows on this
    /// document — ten million nodes in an intermediate node set, which
    /// `//x[predicate]` builds on a large document — is `.data`; write it as
    /// `/descendant::x[predicate]`.
    public func evaluate(_ expression: String, namespaces: [String: String] = [:]) throws -> XPathValue {
        try Self.evaluateXPath(expression, namespaces: namespaces, tree: self, contextNode: nil)
            .mapError { $0.error(expression) }.get()
    }

    /// The elements an XPath expression selects, in document order:
    /// `tree.select("//person[lastName='Doright']")`. An expression that gives
    /// anything but elements — a number, `//@id`, `//text()` — is a `.usage` error
    /// that says what it gave.
    public func select(_ expression: String, namespaces: [String: String] = [:]) throws -> [Element] {
        try Self.selectElements(expression, namespaces: namespaces, tree: self, contextNode: nil)
            .mapError { $0.error(expression) }.get()
    }

    /// Why an expression gave no elements, before it is worded for a caller.
    enum XPathFailure: Error {
        /// libxml2 could not compile it; `offset` is where, in characters.
        case invalid(message: String, offset: Int)
        /// libxml2 compiled it but could not evaluate it (an unknown function…).
        case evaluation(message: String)
        /// Evaluating it on this document passed one of libxml2's limits.
        case resourceLimit(message: String)
        /// It uses prefixes that are not bound (libxml2 does not say which; these are
        /// the prefixes the expression uses that are missing from the bindings).
        case unboundPrefixes([String])
        /// It gave something other than elements.
        case notElements(String)

        func error(_ expression: String) -> IngestError {
            switch self {
            case .invalid(let message, let offset):
                return IngestError(
                    .usage, "invalid XPath expression \"\(expression)\": \(message) (at character \(offset + 1))")
            case .evaluation(let message):
                return IngestError(.usage, "XPath expression \"\(expression)\" cannot be evaluated: \(message)")
            case .resourceLimit(let message):
                return IngestError(
                    .data,
                    "XPath expression \"\(expression)\" needs more than libxml2 allows on this document: \(message)")
            case .unboundPrefixes(let prefixes):
                let list =
                    prefixes.isEmpty
                    ? "a namespace prefix"
                    : prefixes.count == 1
                        ? "namespace prefix \(prefixes[0])" : "namespace prefixes \(prefixes.joined(separator: ", "))"
                return IngestError(.usage, "XPath expression \"\(expression)\" uses \(list) bound to no namespace URI")
            case .notElements(let found):
                return IngestError(.usage, "XPath expression \"\(expression)\" gives \(found), not elements")
            }
        }
    }

    static func selectElements(
        _ expression: String, namespaces: [String: String], tree: XMLTree,
        contextNode: xmlNodePtr?
    ) -> Result<[Element], XPathFailure> {
        evaluateXPath(expression, namespaces: namespaces, tree: tree, contextNode: contextNode).flatMap { value in
            guard case .nodes(let nodes) = value else { return .failure(.notElements(value.kindDescription)) }
            var elements: [Element] = []
            elements.reserveCapacity(nodes.count)
            for node in nodes {
                guard let element = node.element else { return .failure(.notElements(node.kindDescription)) }
                elements.append(element)
            }
            return .success(elements)
        }
    }

    /// Compiles and evaluates `expression` and copies the result out, freeing every
    /// libxml2 object before returning. `contextNode` nil means the document.
    static func evaluateXPath(
        _ expression: String, namespaces: [String: String], tree: XMLTree,
        contextNode: xmlNodePtr?
    ) -> Result<XPathValue, XPathFailure> {
        initializeLibrary
        let diagnostics = LibXML2Diagnostics()
        return diagnostics.capturing { () -> Result<XPathValue, XPathFailure> in
            guard let context = xmlXPathNewContext(tree.document) else {
                return .failure(.invalid(message: "out of memory for an XPath context", offset: 0))
            }
            defer { xmlXPathFreeContext(context) }
            // The document node shares xmlNode's leading fields, as libxml2 itself relies on.
            context.pointee.node =
                contextNode ?? UnsafeMutableRawPointer(tree.document).assumingMemoryBound(to: xmlNode.self)
            for (prefix, uri) in namespaces.sorted(by: { $0.key < $1.key }) {
                guard xmlXPathRegisterNs(context, prefix, uri) == 0 else {
                    return .failure(.invalid(message: "cannot bind namespace prefix \"\(prefix)\"", offset: 0))
                }
            }
            guard let compiled = xmlXPathCtxtCompile(context, expression) else {
                return .failure(failure(diagnostics, expression, namespaces, compiling: true))
            }
            defer { xmlXPathFreeCompExpr(compiled) }
            guard let object = xmlXPathCompiledEval(compiled, context) else {
                return .failure(failure(diagnostics, expression, namespaces, compiling: false))
            }
            defer { xmlXPathFreeObject(object) }
            return value(of: object.pointee, tree: tree).map(Result.success)
                ?? .failure(.notElements("a value of XPath type \(object.pointee.type.rawValue)"))
        }
    }

    private static func value(of object: xmlXPathObject, tree: XMLTree) -> XPathValue? {
        switch object.type {
        case XPATH_NODESET:
            var nodes: [Node] = []
            if let set = object.nodesetval, let table = set.pointee.nodeTab {
                nodes.reserveCapacity(Int(set.pointee.nodeNr))
                for index in 0..<Int(set.pointee.nodeNr) {
                    guard let pointer = table[index] else { continue }
                    if pointer.pointee.type == XML_NAMESPACE_DECL {
                        // A namespace node is an xmlNs copied for this result and freed
                        // with it: copy what it says now.
                        let namespace = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: xmlNs.self).pointee
                        nodes.append(
                            .namespace(
                                prefix: namespace.prefix.map { String(cString: $0) },
                                uri: namespace.href.map { String(cString: $0) } ?? ""))
                    } else if let node = Node(pointer, tree: tree) {
                        nodes.append(node)
                    }
                }
            }
            return .nodes(nodes)
        case XPATH_BOOLEAN:
            return .boolean(object.boolval != 0)
        case XPATH_NUMBER:
            return .number(object.floatval)
        case XPATH_STRING:
            return .string(object.stringval.map { String(cString: $0) } ?? "")
        default:
            return nil
        }
    }

    private static func failure(
        _ diagnostics: LibXML2Diagnostics, _ expression: String,
        _ namespaces: [String: String], compiling: Bool
    ) -> XPathFailure {
        let report = diagnostics.errors.first
        let message = report?.message ?? (compiling ? "it does not compile" : "evaluation failed")
        switch report?.code {
        case Int(XML_XPATH_UNDEF_PREFIX_ERROR.rawValue):
            return .unboundPrefixes(prefixes(in: expression).filter { namespaces[$0] == nil && $0 != "xml" })
        case Int(XML_ERR_NO_MEMORY.rawValue), Int(XML_XPATH_MEMORY_ERROR.rawValue):
            return .resourceLimit(message: message)
        default:
            return compiling ? .invalid(message: message, offset: report?.offset ?? 0) : .evaluation(message: message)
        }
    }

    /// The namespace prefixes an expression's names use (`p` in `//p:item`, `p:*`),
    /// skipping string literals and axes (`child::`). Only for messages.
    static func prefixes(in expression: String) -> [String] {
        let scalars = Array(expression.unicodeScalars)
        func isStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic }
        func isName(_ c: Unicode.Scalar) -> Bool {
            isStart(c) || c == "-" || c == "." || c.properties.numericType != nil
        }
        var found: [String] = []
        var index = 0
        while index < scalars.count {
            let c = scalars[index]
            if c == "\"" || c == "'" {
                index += 1
                while index < scalars.count, scalars[index] != c { index += 1 }
                index += 1
            } else if isStart(c) {
                let start = index
                while index < scalars.count, isName(scalars[index]) { index += 1 }
                if index + 1 < scalars.count, scalars[index] == ":", scalars[index + 1] != ":",
                    isStart(scalars[index + 1]) || scalars[index + 1] == "*"
                {
                    var name = ""
                    name.unicodeScalars.append(contentsOf: scalars[start..<index])
                    if !found.contains(name) { found.append(name) }
                }
            } else {
                index += 1
            }
        }
        return found
    }
}

extension XMLTree.Element {
    /// Evaluates an XPath expression with this element as the context node:
    /// `person.evaluate("string(lastName)")`. See ``XMLTree/evaluate(_:namespaces:)``.
    public func evaluate(_ expression: String, namespaces: [String: String] = [:]) throws -> XMLTree.XPathValue {
        try XMLTree.evaluateXPath(expression, namespaces: namespaces, tree: tree, contextNode: node)
            .mapError { $0.error(expression) }.get()
    }

    /// The elements an XPath expression selects from this element: `people.select("person")`.
    public func select(_ expression: String, namespaces: [String: String] = [:]) throws -> [XMLTree.Element] {
        try XMLTree.selectElements(expression, namespaces: namespaces, tree: tree, contextNode: node)
            .mapError { $0.error(expression) }.get()
    }
}

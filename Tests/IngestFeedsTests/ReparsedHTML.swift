import CLibXML2

/// HTML parsed again with libxml2's HTML parser, as a consumer of the sanitizer's
/// output would: every element with its attributes, for the tests to look for
/// what must not be there.
struct ReparsedHTML {
    struct Element {
        var name: String
        var attributes: [(name: String, value: String)]
    }

    private(set) var elements: [Element] = []

    init(_ html: String) {
        let bytes = Array(("<html><body>" + html + "</body></html>").utf8)
        let options = HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                htmlReadMemory($0.baseAddress, Int32($0.count), nil, "UTF-8", Int32(options))
            }
        }
        guard let document else { return }
        defer { xmlFreeDoc(document) }
        visit(xmlDocGetRootElement(document))
    }

    private mutating func visit(_ node: xmlNodePtr?) {
        var node = node
        while let current = node {
            if current.pointee.type == XML_ELEMENT_NODE {
                var attributes: [(String, String)] = []
                var property = current.pointee.properties
                while let attribute = property {
                    let name = String(cString: attribute.pointee.name)
                    let value =
                        xmlGetProp(current, attribute.pointee.name).map { pointer in
                            defer { ingest_xml_free(pointer) }
                            return String(cString: pointer)
                        } ?? ""
                    attributes.append((name, value))
                    property = attribute.pointee.next
                }
                elements.append(Element(name: String(cString: current.pointee.name), attributes: attributes))
            }
            visit(current.pointee.children)
            node = current.pointee.next
        }
    }
}

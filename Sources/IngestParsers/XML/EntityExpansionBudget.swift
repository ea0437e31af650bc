import IngestCore
import CLibXML2

/// The one bound on entity amplification ("billion laughs") every libxml2 mode
/// applies — streaming, tree and validation — and the one Expat applies itself:
/// once more than 8 MiB of text has come from expanding entity references, the
/// expansions may not exceed 100 times the input read so far.
///
/// libxml2's own check looks at each entity once, when it is declared or first
/// used, so a document can refer thousands of times to an entity just under its
/// threshold (ten times the input read at that point): the work and memory grow
/// with the square of the document's size. Spending each reference's expansion here
/// bounds them by a constant times the input instead.
package struct EntityExpansionBudget {
    /// Expat's thresholds.
    package static let activation = 8 << 20
    package static let maximumAmplification = 100

    /// Bytes of text expansions have produced so far.
    package private(set) var expandedBytes = 0

    package init() {}

    /// Counts `count` bytes of expanded text, with `inputBytes` of the input read so
    /// far; false once the expansions are over the bound.
    package mutating func spend(_ count: Int, inputBytes: Int) -> Bool {
        expandedBytes += count
        return expandedBytes <= Self.activation || expandedBytes <= Self.maximumAmplification * max(inputBytes, 1)
    }

    /// What the refusal says.
    package static let message =
        "entity expansion exceeds \(maximumAmplification) times the document's size (refused as a possible \"billion laughs\" attack)"

    /// What the refusal of attributes the DTD gives by default says, counted by a
    /// budget of their own: K declarations and K elements would otherwise deliver K²
    /// attributes.
    package static let defaultsMessage =
        "attributes the DTD gives by default exceed \(maximumAmplification) times the document's size (refused as an amplification)"
}

/// The length in bytes of the text each internal entity of a document expands to,
/// references inside it expanded in turn, computed once per entity. libxml2 has
/// refused entity loops and references nested more than 40 deep before any of its
/// entities can be referred to.
package final class EntityExpansionSizes {
    private let document: xmlDocPtr
    private var sizes: [String: Int] = [:]

    package init(document: xmlDocPtr) {
        self.document = document
    }

    /// The expanded length of the entity `name`; 0 for one that is not an internal
    /// general entity of the document (the parser refuses those itself).
    package func size(of name: UnsafePointer<xmlChar>) -> Int {
        size(of: name, depth: 0)
    }

    private func size(of name: UnsafePointer<xmlChar>, depth: Int) -> Int {
        let key = String(cString: name)
        if let known = sizes[key] { return known }
        guard depth <= 40, let entity = xmlGetPredefinedEntity(name) ?? xmlGetDocEntity(document, name),
            let content = entity.pointee.content
        else { return 0 }
        let text = UnsafeBufferPointer(start: content, count: Int(entity.pointee.length))
        guard entity.pointee.etype != XML_INTERNAL_PREDEFINED_ENTITY else { return text.count }
        var total = 0, index = 0
        while index < text.count {
            guard text[index] == UInt8(ascii: "&"), let end = text[index...].firstIndex(of: UInt8(ascii: ";")) else {
                total += 1
                index += 1
                continue
            }
            if text[index + 1] == UInt8(ascii: "#") {
                total += 4  // a character reference: at most four bytes of UTF-8
            } else {
                var nested = Array(text[(index + 1)..<end])
                nested.append(0)
                total += nested.withUnsafeBufferPointer { size(of: $0.baseAddress!, depth: depth + 1) }
            }
            index = end + 1
        }
        sizes[key] = total
        return total
    }
}

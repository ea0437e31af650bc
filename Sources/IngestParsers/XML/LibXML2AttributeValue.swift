import IngestCore
import CLibXML2

/// Finishes an attribute value that libxml2 delivered with its references left in.
///
/// Without `XML_PARSE_NOENT` (which would also substitute external entities),
/// libxml2's SAX2 parser leaves `&name;` entity references in attribute values as
/// written and turns `&` from `&amp;` or `&#38;` into `&#38;`, for its tree builder
/// to expand later. This expands them as XML says and Expat does: predefined and
/// character references become their character; an internal entity becomes its
/// replacement text with each tab, CR and LF in it turned into a space and its own
/// references expanded in turn; a value of a type other than CDATA is then
/// normalised again (runs of spaces collapsed, ends trimmed). libxml2 has already
/// checked the value: no `<` in any replacement text, no external or unparsed
/// entity, no undeclared one where that is an error.
struct LibXML2AttributeValue {
    /// Nesting of entity references inside one value; libxml2's own limit is 40.
    static let maxDepth = 40

    let document: xmlDocPtr?
    /// The most bytes an expanded value may take (libxml2's 10 MB unless huge).
    let maxBytes: Int

    enum Failure: Error {
        case tooDeep, tooLong
        case unknownEntity(String)
    }

    /// Appends the expansion of `raw` to `output`.
    func expand(_ raw: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) throws(Failure) {
        try expand(raw, into: &output, depth: 0)
    }

    private func expand(_ raw: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], depth: Int) throws(Failure) {
        guard depth <= Self.maxDepth else { throw .tooDeep }
        let inEntity = depth > 0
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: "&"), let end = raw[index...].firstIndex(of: UInt8(ascii: ";")) {
                let reference = UnsafeBufferPointer(rebasing: raw[(index + 1)..<end])
                index = end + 1
                if reference.first == UInt8(ascii: "#") {
                    appendCharacter(reference, to: &output)
                } else {
                    try appendEntity(reference, to: &output, depth: depth)
                }
            } else {
                // Whitespace in replacement text is normalised to spaces; in the
                // value itself libxml2 has done that already (character references
                // to whitespace, which must stay, are literal characters by now).
                output.append(inEntity && (byte == 0x09 || byte == 0x0A || byte == 0x0D) ? 0x20 : byte)
                index += 1
            }
            guard output.count <= maxBytes else { throw .tooLong }
        }
    }

    /// `#38`, `#x26`: the character, in UTF-8.
    private func appendCharacter(_ reference: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var value: UInt32 = 0
        let hex = reference.count > 1 && (reference[1] == UInt8(ascii: "x"))
        for digit in reference.dropFirst(hex ? 2 : 1) {
            let number: UInt32
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): number = UInt32(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): number = UInt32(digit - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): number = UInt32(digit - UInt8(ascii: "A") + 10)
            default: number = 0
            }
            value = value &* (hex ? 16 : 10) &+ number
        }
        guard let scalar = Unicode.Scalar(value) else { return }
        output.append(contentsOf: UTF8.encode(scalar)!)
    }

    private func appendEntity(_ name: UnsafeBufferPointer<UInt8>, to output: inout [UInt8], depth: Int) throws(Failure)
    {
        var nameBytes = Array(name)
        nameBytes.append(0)
        let entity: xmlEntityPtr? = nameBytes.withUnsafeBufferPointer { buffer in
            xmlGetPredefinedEntity(buffer.baseAddress!) ?? document.flatMap { xmlGetDocEntity($0, buffer.baseAddress!) }
        }
        guard let entity, let content = entity.pointee.content else {
            throw .unknownEntity(String(decoding: name, as: UTF8.self))
        }
        let replacement = UnsafeBufferPointer(start: content, count: Int(entity.pointee.length))
        if entity.pointee.etype == XML_INTERNAL_PREDEFINED_ENTITY {
            output.append(contentsOf: replacement)
        } else {
            try expand(replacement, into: &output, depth: depth + 1)
        }
    }

    /// Collapses runs of spaces into one and trims both ends, as XML does to values
    /// of tokenized types (ID, NMTOKENS, enumerations…).
    static func normaliseTokens(_ value: inout [UInt8]) {
        var result: [UInt8] = []
        result.reserveCapacity(value.count)
        var pendingSpace = false
        for byte in value {
            if byte == 0x20 {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(0x20) }
                pendingSpace = false
                result.append(byte)
            }
        }
        value = result
    }
}

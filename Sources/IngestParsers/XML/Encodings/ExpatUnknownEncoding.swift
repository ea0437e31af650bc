import IngestCore
import CExpat

/// What Expat is told about an encoding it does not know itself (it knows UTF-8,
/// UTF-16, ISO-8859-1 and US-ASCII): the WHATWG decoder the declared name is a
/// label of — a single-byte encoding's index, or the iconv converter the standard's
/// multi-byte decoder matches — and otherwise iconv's converter of that name. libxml2
/// is given the same decoders (``LibXML2Encodings``), so both parsers read a
/// document's bytes as the same characters.
enum ExpatUnknownEncoding {
    /// Fills Expat's `XML_Encoding` for the encoding a document declares as `name`.
    static func describe(_ name: String, to info: UnsafeMutablePointer<XML_Encoding>) throws(ExpatIconvEncoding.Refusal)
    {
        switch WHATWGEncoding(label: name)?.decoder {
        case .singleByte(let index)?:
            withUnsafeMutableBytes(of: &info.pointee.map) { table in
                let entries = table.bindMemory(to: Int32.self)
                for byte in 0..<0x80 { entries[byte] = Int32(byte) }
                for byte in 0x80..<0x100 {
                    let scalar = index[byte - 0x80]
                    entries[byte] = scalar == 0 ? -1 : Int32(scalar)
                }
            }
            // Every byte is its own character: nothing to convert, nothing to release.
            info.pointee.data = nil
            info.pointee.convert = nil
            info.pointee.release = nil
        case .converter(_, let expat)?:
            try ExpatIconvEncoding(name: expat).describe(to: info)
        case nil:
            try ExpatIconvEncoding(name: name).describe(to: info)
        }
    }
}

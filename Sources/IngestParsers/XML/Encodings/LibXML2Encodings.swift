import IngestCore
import CLibXML2

/// libxml2's set-up for ingest, once per process before any parse: its global
/// initialisation, and the WHATWG Encoding Standard's decoders (``WHATWGEncoding``)
/// registered under their names and labels, so that libxml2 reads a declared
/// encoding exactly as Expat does (``ExpatUnknownEncoding``).
///
/// The registration is process-wide, as libxml2's encoding handlers and aliases
/// are: other code parsing with libxml2 in the same process reads these labels
/// the same way.
package enum LibXML2Encodings {
    /// Call (evaluate) before the first libxml2 parse on any thread.
    package static let ready: Void = {
        xmlInitParser()
        for (index, encoding) in WHATWGEncoding.singleByte.enumerated() where index < inputFunctions.count {
            // Registers the handler; libxml2 keeps it for the life of the process.
            _ = xmlNewCharEncodingHandler(encoding.name, inputFunctions[index], nil)
        }
        for (encoding, labels) in WHATWGEncoding.labels {
            let target: String =
                switch encoding.decoder {
                case .singleByte: encoding.name
                case .converter(let converter, _): converter
                }
            for label in labels where WHATWGEncoding.normalized(label) != WHATWGEncoding.normalized(target) {
                xmlAddEncodingAlias(target, label)
            }
        }
    }()

    /// One input function per single-byte encoding, in ``WHATWGEncoding/singleByte``'s
    /// order: libxml2 calls an encoding's input function without any context, so
    /// each needs a function of its own that knows its index.
    static let inputFunctions: [xmlCharEncodingInputFunc] = [
        { decode(0, $0, $1, $2, $3) }, { decode(1, $0, $1, $2, $3) }, { decode(2, $0, $1, $2, $3) },
        { decode(3, $0, $1, $2, $3) }, { decode(4, $0, $1, $2, $3) }, { decode(5, $0, $1, $2, $3) },
        { decode(6, $0, $1, $2, $3) }, { decode(7, $0, $1, $2, $3) }, { decode(8, $0, $1, $2, $3) },
        { decode(9, $0, $1, $2, $3) }, { decode(10, $0, $1, $2, $3) }, { decode(11, $0, $1, $2, $3) },
        { decode(12, $0, $1, $2, $3) }, { decode(13, $0, $1, $2, $3) }, { decode(14, $0, $1, $2, $3) },
        { decode(15, $0, $1, $2, $3) }, { decode(16, $0, $1, $2, $3) }, { decode(17, $0, $1, $2, $3) },
        { decode(18, $0, $1, $2, $3) }, { decode(19, $0, $1, $2, $3) }, { decode(20, $0, $1, $2, $3) },
        { decode(21, $0, $1, $2, $3) }, { decode(22, $0, $1, $2, $3) }, { decode(23, $0, $1, $2, $3) },
        { decode(24, $0, $1, $2, $3) }, { decode(25, $0, $1, $2, $3) }, { decode(26, $0, $1, $2, $3) }
    ]

    /// The indexes the input functions read, unwrapped once.
    private static let indexes: [[UInt16]] = WHATWGEncoding.singleByte.map {
        guard case .singleByte(let index) = $0.decoder else { return [] }
        return index
    }

    /// libxml2's input function for the single-byte encoding at `encoding`: converts
    /// as many bytes of `input` as fit into `output` as UTF-8, and says how many of
    /// each it used. Returns -2 at a byte the encoding does not define, having
    /// converted the bytes before it, which libxml2 reports as a conversion error,
    /// as it does for iconv's.
    ///
    /// Safety: reads stay below the `inputLength` and writes below the
    /// `outputLength` libxml2 passes with its buffers.
    static func decode(
        _ encoding: Int, _ output: UnsafeMutablePointer<UInt8>?, _ outputLength: UnsafeMutablePointer<Int32>?,
        _ input: UnsafePointer<UInt8>?, _ inputLength: UnsafeMutablePointer<Int32>?
    ) -> Int32 {
        guard let output, let outputLength, let inputLength else { return -1 }
        guard let input else {
            // A flush: a single-byte decoder holds nothing back.
            outputLength.pointee = 0
            inputLength.pointee = 0
            return 0
        }
        let index = indexes[encoding]
        let inputCount = Int(inputLength.pointee), outputCount = Int(outputLength.pointee)
        var read = 0, written = 0, status: Int32 = 0
        while read < inputCount {
            let byte = input[read]
            let scalar = byte < 0x80 ? UInt16(byte) : index[Int(byte) &- 0x80]
            if scalar == 0, byte != 0 {
                status = -2
                break
            }
            let size = scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : 3
            guard written + size <= outputCount else { break }
            switch size {
            case 1:
                output[written] = UInt8(scalar)
            case 2:
                output[written] = 0xC0 | UInt8(scalar >> 6)
                output[written + 1] = 0x80 | UInt8(scalar & 0x3F)
            default:
                output[written] = 0xE0 | UInt8(scalar >> 12)
                output[written + 1] = 0x80 | UInt8((scalar >> 6) & 0x3F)
                output[written + 2] = 0x80 | UInt8(scalar & 0x3F)
            }
            written += size
            read += 1
        }
        outputLength.pointee = Int32(written)
        inputLength.pointee = Int32(read)
        return status == 0 ? Int32(written) : status
    }
}

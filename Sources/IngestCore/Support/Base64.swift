/// Standard base64 (RFC 4648 §4: `A–Z a–z 0–9 + /`, `=` padding, no line breaks),
/// the text of a ``FieldValue/data(_:)`` wherever an output shows binary data as text:
/// ``FieldValue/text``, JSON strings, XML plist `<data>`.
///
/// Written here rather than borrowed from Foundation's `Data`, which the sinks do not
/// otherwise need, and so the bytes go straight from the array into the string.
package enum Base64 {
    /// The characters of the standard alphabet, by 6-bit value.
    private static let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    /// The length of the base64 text of `count` bytes, padding included.
    package static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// `bytes` as base64 text.
    package static func encode(_ bytes: [UInt8]) -> String {
        let length = encodedCount(bytes.count)
        if length == 0 { return "" }
        return String(unsafeUninitializedCapacity: length) { output in
            bytes.withUnsafeBufferPointer { encode($0, into: output) }
        }
    }

    /// Writes the base64 text of `input` to the start of `output`, which holds at
    /// least ``encodedCount(_:)`` bytes; returns how many it wrote.
    @discardableResult
    package static func encode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        precondition(output.count >= encodedCount(input.count), "base64 output buffer too small")
        let table = UnsafeBufferPointer(start: alphabet.utf8Start, count: 64)
        let padding = UInt8(ascii: "=")
        var read = 0
        var written = 0
        while input.count - read >= 3 {
            let group = UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2])
            output[written] = table[Int(group >> 18)]
            output[written + 1] = table[Int(group >> 12 & 0x3F)]
            output[written + 2] = table[Int(group >> 6 & 0x3F)]
            output[written + 3] = table[Int(group & 0x3F)]
            read += 3
            written += 4
        }
        switch input.count - read {
        case 1:
            let group = UInt32(input[read]) << 16
            output[written] = table[Int(group >> 18)]
            output[written + 1] = table[Int(group >> 12 & 0x3F)]
            output[written + 2] = padding
            output[written + 3] = padding
            written += 4
        case 2:
            let group = UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8
            output[written] = table[Int(group >> 18)]
            output[written + 1] = table[Int(group >> 12 & 0x3F)]
            output[written + 2] = table[Int(group >> 6 & 0x3F)]
            output[written + 3] = padding
            written += 4
        default:
            break
        }
        return written
    }
}

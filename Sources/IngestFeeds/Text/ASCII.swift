/// Byte tests for ASCII text, shared by the date reader and the HTML scanner.
@inline(__always) func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
@inline(__always) func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 97 < 26 }
@inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte &- 48 < 10 }
/// Space, tab, LF, CR and form feed: HTML's white space, and XML's plus form feed.
@inline(__always) func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
}

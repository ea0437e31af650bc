/// Deeply nested values without deep recursion: a record may hold a value nested as
/// deep as the parsers accept (``ParseLimits/maxSupportedDepth``, and an object
/// holding a list per XML level), which recursion would take through a thread's
/// stack level by level.
extension JSONValue {
    /// How many levels ``write(into:)`` goes by recursion before it goes on without.
    static let recursionDepth = 128

    /// Appends the compact JSON text, keeping the containers being written on a
    /// stack of its own.
    func writeWithoutRecursion(into out: inout [UInt8]) {
        /// An array or object being written, and how many of its entries are out.
        enum Open {
            case array([JSONValue], written: Int)
            case object([(key: String, value: JSONValue)], written: Int)
        }
        var open: [Open] = []
        var next: JSONValue? = self
        while true {
            if let value = next {
                next = nil
                switch value {
                case .array(let items):
                    out.append(UInt8(ascii: "["))
                    open.append(.array(items, written: 0))
                case .object(let members):
                    out.append(UInt8(ascii: "{"))
                    open.append(.object(members, written: 0))
                default:
                    value.write(into: &out, depth: 0)  // a scalar
                }
            }
            guard let innermost = open.popLast() else { return }
            switch innermost {
            case .array(let items, let written):
                guard written < items.count else {
                    out.append(UInt8(ascii: "]"))
                    continue
                }
                if written > 0 { out.append(UInt8(ascii: ",")) }
                open.append(.array(items, written: written + 1))
                next = items[written]
            case .object(let members, let written):
                guard written < members.count else {
                    out.append(UInt8(ascii: "}"))
                    continue
                }
                if written > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(members[written].key, into: &out)
                out.append(UInt8(ascii: ":"))
                open.append(.object(members, written: written + 1))
                next = members[written].value
            }
        }
    }
}

import IngestCore

extension InputFormat {
    /// The format of `input`: its name's, else what its first bytes suggest, else XML.
    public static func detect(_ input: InputFile) throws -> InputFormat {
        if let path = input.path, let format = fromExtension(of: path) { return format }
        // As few bytes as tell: the first that is not white space.
        var wanted = 1
        while true {
            let (format, seen) = try input.peek(atLeast: wanted) { (sniffing($0), $0.count) }
            if format != nil || seen < wanted || seen >= InputFile.peekLimit { return format ?? .xml }
            wanted = seen + 1
        }
    }
}

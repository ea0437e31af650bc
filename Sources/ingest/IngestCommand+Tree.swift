import ArgumentParser
import IngestKit

/// Tree mode: `--xpath`, `--ns`, `--max-tree-bytes`.
extension IngestCommand {
    func validateTreeOptions() throws {
        guard let xpath else {
            if !namespaceBindings.isEmpty { throw ValidationError("--ns binds prefixes for --xpath: give --xpath too.") }
            if maxTreeBytes != nil { throw ValidationError("--max-tree-bytes limits the tree of --xpath: give --xpath too.") }
            return
        }
        if records != nil { throw ValidationError("--xpath and --records both choose the records: give one of them.") }
        if parseOnly {
            throw ValidationError("--parse-only streams the input without building a tree: drop --xpath, or try the expression with --dry-run.")
        }
        if nl || from == .json || from == .jsonLines {
            throw ValidationError("--xpath selects elements of an XML document; it cannot read JSON.")
        }
        if let maxTreeBytes, maxTreeBytes.value < 1 { throw ValidationError("--max-tree-bytes must be positive.") }
        // The expression's syntax and prefixes can be checked before any input is read.
        do {
            try XPathSelection(xpath, namespaces: try namespaces()).check()
        } catch let error as IngestError {
            throw ValidationError(error.message)
        }
    }

    /// The `--ns` bindings, prefix → URI.
    func namespaces() throws -> [String: String] {
        var bindings: [String: String] = [:]
        for binding in namespaceBindings {
            guard let equals = binding.firstIndex(of: "=") else {
                throw ValidationError("--ns \(binding): expected PREFIX=URI, e.g. --ns a=http://www.w3.org/2005/Atom.")
            }
            let prefix = String(binding[..<equals]), uri = String(binding[binding.index(after: equals)...])
            guard !prefix.isEmpty, !uri.isEmpty, !prefix.contains(":"), prefix.first.map({ $0.isLetter || $0 == "_" }) == true,
                  prefix.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) else {
                throw ValidationError("--ns \(binding): expected PREFIX=URI with a prefix such as a or dc, e.g. --ns a=http://www.w3.org/2005/Atom.")
            }
            if prefix == "xmlns" { throw ValidationError("--ns: the prefix xmlns is reserved; pick another.") }
            if let bound = bindings[prefix], bound != uri {
                throw ValidationError("--ns binds \(prefix) twice, to \(bound) and to \(uri).")
            }
            bindings[prefix] = uri
        }
        return bindings
    }

    /// What `--xpath` asks for, or `nil` for streaming.
    func xpathSelection() throws -> XPathSelection? {
        guard let xpath else { return nil }
        return XPathSelection(xpath, namespaces: try namespaces(),
                              maxTreeBytes: maxTreeBytes?.value ?? XPathSelection.defaultMaxTreeBytes)
    }
}

import Foundation

/// The Swift code blocks (` ```swift `) of a DocC article or other Markdown file, each
/// as its lines. `path` is relative to the package root.
public func swiftCodeBlocks(inArticle path: String) throws -> [[String]] {
    let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    var blocks: [[String]] = []
    var current: [String]?
    for line in text.components(separatedBy: "\n") {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if current == nil, trimmed == "```swift" {
            current = []
        } else if current != nil, trimmed == "```" {
            blocks.append(current!)
            current = nil
        } else {
            current?.append(line)
        }
    }
    return blocks
}

/// The Swift code blocks of the article at `article` (relative to the package root)
/// that do not appear in the Swift file at `source` (a test's `#filePath`), line for
/// line and in one piece — indentation and blank lines aside, so a block may sit in
/// a type or a function there. A test that compiles the file and expects this to be
/// empty proves that every snippet of the article compiles.
public func codeBlocks(ofArticle article: String, missingFrom source: String) throws -> [String] {
    func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
    let code = normalized(try String(contentsOfFile: source, encoding: .utf8).components(separatedBy: "\n"))
    let blocks = try swiftCodeBlocks(inArticle: article)
    return blocks.filter { block in
        let lines = normalized(block)
        guard !lines.isEmpty, lines.count <= code.count else { return !lines.isEmpty }
        return !(0...(code.count - lines.count)).contains { start in
            code[start..<start + lines.count].elementsEqual(lines)
        }
    }.map { $0.joined(separator: "\n") }
}

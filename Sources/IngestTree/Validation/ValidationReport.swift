import IngestCore
/// One way a document breaks its schema, or is not well-formed XML.
public struct ValidationProblem: Hashable, Sendable, CustomStringConvertible {
    /// The input, as the user named it.
    public var file: String
    /// 1-based line, 0 when unknown.
    public var line: Int
    /// 1-based column, 0 when unknown: libxml2's validators give lines only; its
    /// parser, for well-formedness errors, gives columns too.
    public var column: Int
    /// libxml2's message (or ingest's, for what ingest refuses).
    public var message: String

    /// A problem in `file` at `line` and `column` (0 when unknown).
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, leaving out what is unknown.
    public var description: String {
        var prefix = file
        if line > 0 { prefix += ":\(line)" }
        if line > 0, column > 0 { prefix += ":\(column)" }
        return "\(prefix): \(message)"
    }
}

/// The outcome of validating one input: the first problems and how many there were.
public struct ValidationReport: Sendable {
    /// The input, as the user named it.
    public var file: String
    /// The schema's path, as given.
    public var schema: String
    /// The first problems, in document order (at most the number asked for).
    public var problems: [ValidationProblem]
    /// How many problems there were in all.
    public var problemCount: Int

    /// Whether the input had no problem at all.
    public var isValid: Bool { problemCount == 0 }

    /// `not valid against folks.xsd (3 problems)`, as a `.data` error naming the input,
    /// with the problems listed on the lines after it.
    public var error: IngestError {
        var message = "not valid against \(schema) (\(problemCount) problem\(problemCount == 1 ? "" : "s"))"
        for problem in problems { message += "\n  \(problem)" }
        if problemCount > problems.count { message += "\n  … and \(problemCount - problems.count) more" }
        return IngestError(.data, message, file: file)
    }
}

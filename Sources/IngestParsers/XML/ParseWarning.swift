import IngestCore

/// Something a parser met and read past, which a person may want to know: the
/// document is read on and the import succeeds. Printed like an ``/IngestCore/IngestError``:
/// `feed.rss:3:57: entity 'foo' is not declared …`.
public struct ParseWarning: CustomStringConvertible, Sendable {
    /// What was met and what was done with it.
    public var message: String
    /// The input's name.
    public var file: String
    /// Where in the input.
    public var position: SourcePosition?

    /// A warning about `file` at `position`.
    public init(message: String, file: String, position: SourcePosition?) {
        self.message = message
        self.file = file
        self.position = position
    }

    /// `file:line:column: message`.
    public var description: String {
        IngestError(.data, message, file: file, position: position).description
    }
}

/// What a parser calls with each ``ParseWarning``, on the thread that parses.
public typealias ParseWarningHandler = @Sendable (ParseWarning) -> Void

/// The general entities a document refers to that nothing read declares while an
/// external subset or parameter entity was skipped (see ``UndeclaredEntity``): kept
/// in the text as written, `&name;`, with one warning per name.
struct SkippedEntities {
    private var warned: Set<String> = []

    /// The reference's text as written, and a warning to give, the first time for
    /// `name`, through `handler`.
    mutating func keep(
        _ name: String, unread: String?, file: String, at position: SourcePosition,
        warning handler: ParseWarningHandler?
    ) -> [UInt8] {
        if let handler, warned.insert(name).inserted {
            handler(
                ParseWarning(
                    message: UndeclaredEntity.keptMessage(name, unread: unread), file: file, position: position))
        }
        return Array("&\(name);".utf8)
    }
}

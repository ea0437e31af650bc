/// A Media RSS `media:title` or `media:description`: the text, and whether it is
/// plain text or HTML (its `type` attribute, `plain` when absent).
public struct MediaText: Sendable, Hashable {
    /// The text, trimmed.
    public var value: String
    /// `type`: `plain` or `html`; `nil` when not written (which means `plain`).
    public var type: String?

    /// A text of `type`.
    public init(value: String, type: String? = nil) {
        self.value = value
        self.type = type.nonEmpty
    }

    /// Whether ``value`` is HTML to render rather than text to show as is.
    public var isHTML: Bool { type?.trimmingASCIIWhiteSpace().lowercased() == "html" }

    /// The text of `element`; `nil` when it is empty.
    init?(_ element: Extension?) {
        guard let element, !element.value.isEmpty else { return nil }
        self.init(value: element.value, type: element.attributes["type"])
    }
}

import IngestCore

/// The failures IngestParsers' XML parsers name: their own limits, and an encoding
/// only the other parser reads.
extension IngestError.Code {
    /// One of libxml2's own limits (value size, name length, entity amplification),
    /// which `allowsHugeDocuments` lifts.
    public static let libxml2Limit = Self("libxml2Limit")
    /// Entity references expanding to far more text than the document holds
    /// ("billion laughs"), which Expat refuses whatever the options.
    public static let entityAmplification = Self("entityAmplification")
    /// An encoding Expat cannot read but libxml2 can; ``IngestError/Reason/encoding``
    /// names it.
    public static let encodingNeedsLibXML2 = Self("encodingNeedsLibXML2")
}

extension IngestError.Reason {
    /// Past a libxml2 limit (``IngestError/Code/libxml2Limit``).
    public static let libxml2Limit = Self(.libxml2Limit)
    /// Entity amplification (``IngestError/Code/entityAmplification``).
    public static let entityAmplification = Self(.entityAmplification)
    /// `encoding` needs libxml2 (``IngestError/Code/encodingNeedsLibXML2``).
    public static func encodingNeedsLibXML2(_ encoding: String) -> Self { Self(.encodingNeedsLibXML2, encoding) }

    /// For ``IngestError/Code/encodingNeedsLibXML2``: the encoding's name.
    public var encoding: String? { code == .encodingNeedsLibXML2 ? value(as: String.self) : nil }
}

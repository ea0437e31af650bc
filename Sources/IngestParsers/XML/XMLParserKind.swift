import IngestCore

/// Which streaming parser reads XML inputs.
public enum XMLParserKind: String, Sendable, CaseIterable {
    /// ``ExpatParser``: the default, fastest for UTF-8.
    case expat
    /// ``LibXML2Parser``: the same events; reads every encoding iconv knows.
    case libxml2
}

import Foundation
import IngestCore
import IngestParsers

/// Reads one OPML document held in memory: strictly with Expat first, then — when
/// that finds the XML ill-formed — again in libxml2's recovering mode after
/// ``XMLRepairFilter``, as ``FeedReader`` does for feeds.
struct OPMLReader {
    let displayName: String
    var limits = ParseLimits.default

    init(displayName: String) {
        self.displayName = displayName
    }

    func read(_ data: Data) throws -> OPMLDocument {
        var bytes = [UInt8](data)
        // White space before the XML declaration: Expat and libxml2 refuse it, readers
        // that wrote it do not mean anything by it (FeedSniffer drops it for feeds too).
        if let first = bytes.firstIndex(where: { !Self.isWhiteSpace($0) }), first > 0, bytes[first] == UInt8(ascii: "<")
        {
            bytes.removeFirst(first)
        }
        let strict = OPMLReceiver(limits: limits)
        do {
            let parser = ExpatPushParser(receiver: strict, limits: limits, displayName: displayName)
            try bytes.withUnsafeBytes { try parser.feed($0) }
            try parser.finish()
            return try strict.document(displayName: displayName)
        } catch let error as IngestError where Self.mayRecover(from: error, receiver: strict) {
            return try readRecovering(bytes)
        }
    }

    /// Whether `error`, which stopped the strict read, says the XML is ill-formed
    /// rather than that the document is no OPML or passed a limit.
    private static func mayRecover(from error: IngestError, receiver: OPMLReceiver) -> Bool {
        switch error.reason?.code {
        case .textLimit?, .depthLimit?, .libxml2Limit?, .entityAmplification?: return false
        default: return error.kind == .data && receiver.refusal == nil
        }
    }

    private func readRecovering(_ bytes: [UInt8]) throws -> OPMLDocument {
        var repair = XMLRepairFilter(maxTokenBytes: limits.maxTextBytes)
        var repaired: [UInt8] = []
        repaired.reserveCapacity(bytes.count + bytes.count / 16)
        do {
            try bytes.withUnsafeBytes { try repair.repair($0, final: true, into: &repaired) }
        } catch let error as IngestError {
            throw error.inFile(displayName)
        }
        let receiver = OPMLReceiver(limits: limits)
        let parser = try LibXML2PushParser(
            receiver: receiver, recovers: true, limits: limits, displayName: displayName)
        try repaired.withUnsafeBytes { try parser.feed($0) }
        try parser.finish()
        return try receiver.document(displayName: displayName, recoveredError: parser.firstRecoveredError)
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

/// Collects the head's title and the feed outlines of an OPML document from its
/// parse events, keeping the path of the folder outlines open around each.
final class OPMLReceiver: ParseEventReceiver {
    private enum Open {
        case root, head, title, folder(named: Bool), other
    }

    private let limits: ParseLimits
    /// The error this receiver stopped the parse with: the document is no OPML, or
    /// passed a limit. Not a reason to read it again.
    private(set) var refusal: IngestError?
    private var open: [Open] = []
    /// The names of the named folder outlines open, outermost first.
    private var folders: [String] = []
    private var titleBytes: [UInt8]?
    private var title: String?
    private var sawTitle = false
    private var sawRoot = false
    private var subscriptions: [OPMLSubscription] = []
    private var indexByURL: [String: Int] = [:]
    /// Each subscription's categories as a set, for merging in constant time.
    private var categorySets: [Set<String>] = []

    /// The longest folder path or category a subscription may have, in bytes: each
    /// is copied into every subscription under it, so a long one would make a small
    /// document a large archive.
    static let maxCategoryBytes = 4096

    init(limits: ParseLimits) {
        self.limits = limits
    }

    /// What was read; throws `.data` when the document had no `<opml>` element.
    func document(displayName: String, recoveredError: IngestError? = nil) throws -> OPMLDocument {
        guard sawRoot else {
            var message = "not OPML: the document has no document element"
            if let recoveredError { message += " (not XML: \(recoveredError.message))" }
            throw IngestError(.data, message, file: displayName, position: recoveredError?.position)
        }
        endTitle()
        return OPMLDocument(title: title, subscriptions: subscriptions)
    }

    func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
        guard open.count < limits.maxDepth else {
            throw refuse(
                IngestError(
                    .data, "elements nested deeper than \(limits.maxDepth) levels", position: position,
                    reason: .depthLimit(limits.maxDepth)))
        }
        for attribute in attributes where attribute.value.count > limits.maxTextBytes {
            throw refuse(
                IngestError(
                    .data, "attribute \(attribute.name) of <\(name)> is longer than \(limits.maxTextBytes) bytes",
                    position: position, reason: .textLimit(limits.maxTextBytes)))
        }
        let local = name.local.lowercased()
        guard let parent = open.last else {
            guard !sawRoot else {
                // Recovering, libxml2 may report content after the document element.
                open.append(.other)
                return
            }
            guard local == "opml" else {
                throw refuse(
                    IngestError(
                        .data, "not OPML: the document element is <\(name.qualified)>, not <opml>",
                        position: position))
            }
            sawRoot = true
            open.append(.root)
            return
        }
        switch (local, parent) {
        case ("head", .root):
            open.append(.head)
        case ("title", .head) where !sawTitle:
            sawTitle = true
            titleBytes = []
            open.append(.title)
        case (_, .head), (_, .title):
            open.append(.other)
        case ("outline", _):
            open.append(try outline(attributes, at: position))
        default:
            open.append(.other)
        }
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        guard case .title? = open.last, titleBytes != nil else { return }
        guard titleBytes!.count + bytes.count <= limits.maxTextBytes else {
            throw refuse(
                IngestError(
                    .data, "the title is longer than \(limits.maxTextBytes) bytes", position: position,
                    reason: .textLimit(limits.maxTextBytes)))
        }
        titleBytes!.append(contentsOf: bytes)
    }

    func endElement(_ name: Name, at position: SourcePosition) throws {
        switch open.popLast() {
        case .title?: endTitle()
        case .folder(named: true)?: folders.removeLast()
        default: break
        }
    }

    private func refuse(_ error: IngestError) -> IngestError {
        refusal = error
        return error
    }

    private func endTitle() {
        guard let bytes = titleBytes else { return }
        titleBytes = nil
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        title = text.isEmpty ? nil : text
    }

    /// Reads an outline: a feed (added, or merged into the one with its URL) or a folder.
    private func outline(_ attributes: Attributes, at position: SourcePosition) throws -> Open {
        var xmlURL: String?, htmlURL: String?, title: String?, text: String?, category: String?
        for attribute in attributes {
            switch attribute.name.local.lowercased() {
            case "xmlurl": xmlURL = attribute.string
            case "htmlurl": htmlURL = attribute.string
            case "title": title = attribute.string
            case "text": text = attribute.string
            case "category": category = attribute.string
            default: break
            }
        }
        let name = Self.nonEmpty(title) ?? Self.nonEmpty(text)
        guard let url = Self.nonEmpty(xmlURL?.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            if let name { folders.append(name) }
            return .folder(named: name != nil)
        }
        var categories: [String] = []
        var seen: Set<String> = []
        if !folders.isEmpty {
            let path = folders.joined(separator: "/")
            try checkLength(of: path, "the folder path", at: position)
            categories.append(path)
            seen.insert(path)
        }
        for entry in (category ?? "").split(separator: ",") {
            let path = entry.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: ["/"])
            try checkLength(of: path, "a category", at: position)
            if !path.isEmpty && seen.insert(path).inserted { categories.append(path) }
        }
        if let index = indexByURL[url] {
            for category in categories where categorySets[index].insert(category).inserted {
                subscriptions[index].categories.append(category)
            }
        } else {
            indexByURL[url] = subscriptions.count
            categorySets.append(seen)
            subscriptions.append(
                OPMLSubscription(
                    url: url, title: name,
                    siteURL: Self.nonEmpty(htmlURL?.trimmingCharacters(in: .whitespacesAndNewlines)),
                    categories: categories))
        }
        return .other
    }

    /// Refuses the document when `category` (`what` of an outline) is longer than
    /// ``maxCategoryBytes``.
    private func checkLength(of category: String, _ what: String, at position: SourcePosition) throws {
        guard category.utf8.count > Self.maxCategoryBytes else { return }
        throw refuse(
            IngestError(
                .data, "\(what) of <outline> is longer than \(Self.maxCategoryBytes) bytes", position: position,
                reason: .textLimit(Self.maxCategoryBytes)))
    }

    private static func nonEmpty(_ string: String?) -> String? {
        guard let string, !string.isEmpty else { return nil }
        return string
    }
}

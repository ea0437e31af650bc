import ArgumentParser
import Foundation

/// One SOURCE of `ingest feed`: a file, standard input or an http(s) URL.
enum FeedSource: Sendable, Hashable {
    /// A file, by the path given and its absolute form (the archive's name for it,
    /// the same from any working directory).
    case file(path: String, absolute: String)
    /// `-`.
    case standardInput
    /// An `http://` or `https://` URL.
    case url(URL)

    /// Reads a command-line argument; throws a usage error for a URL of another
    /// scheme or one without a host.
    init(argument: String) throws {
        if argument == "-" {
            self = .standardInput
            return
        }
        let lowered = argument.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let url = URL(string: argument), let host = url.host, !host.isEmpty else {
                throw ValidationError("\(argument): not a URL ingest can read (expected http(s)://host/path).")
            }
            self = .url(url)
            return
        }
        if lowered.hasPrefix("file://"), let url = URL(string: argument), url.isFileURL {
            self = .file(path: url.path, absolute: url.standardizedFileURL.path)
            return
        }
        if let colon = argument.firstIndex(of: ":"), argument[colon...].hasPrefix("://"),
           argument[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
            throw ValidationError("\(argument): ingest feed reads files, - and http(s) URLs; not \(argument[..<colon]).")
        }
        let absolute = URL(fileURLWithPath: argument).standardizedFileURL.path
        self = .file(path: argument, absolute: absolute)
    }

    /// How messages name the source: the path or URL as given, `<stdin>`.
    var displayName: String {
        switch self {
        case .file(let path, _): path
        case .standardInput: "<stdin>"
        case .url(let url): url.absoluteString
        }
    }

    /// The name the archive keeps it under, when it has one before it is read.
    var archiveName: String? {
        switch self {
        case .file(_, let absolute): absolute
        case .standardInput: nil
        case .url(let url): url.absoluteString
        }
    }

    var isRemote: Bool {
        if case .url = self { true } else { false }
    }
}

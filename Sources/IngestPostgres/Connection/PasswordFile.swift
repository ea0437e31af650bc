#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A libpq password file (`~/.pgpass`, or the file `PGPASSFILE` names): lines of
/// `hostname:port:database:username:password`, read the way libpq reads them.
///
/// - The first line whose four fields match is used; later lines are not read.
/// - A field that is exactly `*` matches anything.
/// - `\:` and `\\` stand for a colon and a backslash (a backslash before any other
///   character stands for that character), in the four fields and in the password.
/// - Lines starting with `#` and empty lines are skipped; a line with fewer than five
///   fields does not match.
/// - `localhost` matches a connection through the default Unix-socket directory; other
///   socket directories match by their path.
/// - The file is ignored, with a warning, when it is not a plain file or when its group
///   or others have any access (permissions must be `u=rw`, 0600, or less), exactly as
///   libpq ignores it: a password that other users can read is no secret.
public struct PasswordFile: Sendable, Equatable {
    /// Where the file is, for messages.
    public let path: String
    private let lines: [String]

    /// Parses `contents` as the password file at `path` (no permission check).
    public init(path: String, contents: String) {
        self.path = path
        lines = contents.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
            .map { String($0.hasSuffix("\r") ? $0.dropLast() : $0) }
    }

    /// What reading the file at `path` gave: the file, or why it is not used.
    public enum Loaded: Sendable, Equatable {
        /// The file, readable by its owner only, parsed.
        case file(PasswordFile)
        /// No such file: not an error, most users have none.
        case missing
        /// The file exists but is not used; the string says why, to show as a warning.
        case ignored(String)
    }

    /// Reads the file at `path`, checking what libpq checks: a plain file, no access
    /// for group or others.
    public static func load(path: String) -> Loaded {
        var status = stat()
        guard stat(path, &status) == 0 else { return .missing }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return .ignored("password file \"\(path)\" is not a plain file")
        }
        if status.st_mode & (S_IRWXG | S_IRWXO) != 0 {
            return .ignored(
                "password file \"\(path)\" has group or world access; permissions should be u=rw (0600) or less")
        }
        guard let file = fopen(path, "r") else {
            return .ignored("password file \"\(path)\" cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return .file(PasswordFile(path: path, contents: String(decoding: bytes, as: UTF8.self)))
    }

    /// The password of the first line matching the four values, as libpq compares
    /// them: `host` is `localhost` for the default Unix-socket directory (the caller
    /// passes what ``PostgresConnectionSettings`` resolved), `port` the port as text.
    public func password(host: String, port: String, database: String, user: String) -> String? {
        for line in lines {
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            var rest = Substring(line)
            var matched = true
            for value in [host, port, database, user] {
                guard let after = Self.matchField(&rest, against: value) else {
                    matched = false
                    break
                }
                rest = after
            }
            if matched { return Self.unescapedPassword(rest) }
        }
        return nil
    }

    /// Matches the field at the start of `line` (up to an unescaped `:`) against
    /// `value`; on a match, returns what follows the colon.
    private static func matchField(_ line: inout Substring, against value: String) -> Substring? {
        if line.hasPrefix("*:") { return line.dropFirst(2) }
        var field = ""
        var characters = line
        while let character = characters.popFirst() {
            if character == "\\" {
                guard let escaped = characters.popFirst() else { return nil }
                field.append(escaped)
            } else if character == ":" {
                return field == value ? characters : nil
            } else {
                field.append(character)
            }
        }
        return nil  // no colon: the line has too few fields
    }

    /// The password field: up to an unescaped `:` or the end, escapes removed.
    private static func unescapedPassword(_ field: Substring) -> String {
        var password = ""
        var characters = field
        while let character = characters.popFirst() {
            if character == "\\", let escaped = characters.popFirst() {
                password.append(escaped)
            } else if character == ":" {
                break
            } else {
                password.append(character)
            }
        }
        return password
    }
}

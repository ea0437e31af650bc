import IngestCore
import IngestPOSIX
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension InputFile {
    /// Copies standard input to an unnamed temporary file and returns `readers`
    /// independent inputs over the copy; see ``spooled(readers:directory:)``.
    public static func spoolingStandardInput(readers: Int = 2, directory: String? = nil) throws -> [InputFile] {
        try InputFile(path: "-").spooled(readers: readers, directory: directory)
    }

    /// Copies the rest of this input to an unnamed temporary file and returns
    /// `readers` independent inputs over the copy, each reading from the start and
    /// named as this one is — for a check that must read an input before it is
    /// imported (validation), when the input can be read only once (standard input,
    /// a pipe, a FIFO).
    ///
    /// The file is created in `directory` (default: `$TMPDIR`, else `/tmp`) and
    /// unlinked at once, so it never outlives the inputs, whatever ends the process.
    /// It needs as much free space as the input is large; memory stays flat.
    public func spooled(readers: Int = 2, directory: String? = nil) throws -> [InputFile] {
        let (folder, path, writer) = try Self.makeTemporaryFile(in: directory, holding: displayName)
        defer { close(writer) }
        var descriptors: [Int32] = []
        do {
            // Opened before the unlink, each with its own file offset; wrapped only
            // after the copy, so that each input knows the full size.
            for _ in 0..<readers {
                let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else {
                    throw IngestError(
                        .io, "cannot reopen the temporary copy of \(displayName): \(String(cString: strerror(errno)))")
                }
                descriptors.append(descriptor)
            }
            unlink(path)
            try Self.copy(self, to: writer, folder: folder)
        } catch {
            unlink(path)
            for descriptor in descriptors { close(descriptor) }
            throw error
        }
        return descriptors.map { InputFile(descriptor: $0, path: path, displayName: displayName) }
    }

    /// Creates an empty temporary file in `directory` (default: `$TMPDIR`, else
    /// `/tmp`), named `.ingest-PREFIX-` and six random characters, to hold a copy of
    /// `name`: the folder, the file's path and a descriptor open for reading and
    /// writing. The caller unlinks it.
    static func makeTemporaryFile(in directory: String?, holding name: String, prefix: String = "stdin") throws -> (
        folder: String, path: String, descriptor: Int32
    ) {
        let folder = directory ?? getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(folder)/.ingest-\(prefix)-XXXXXX".utf8CString)
        let writer = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard writer >= 0 else {
            throw IngestError(
                .io, "cannot create a temporary file in \(folder) to hold \(name): \(String(cString: strerror(errno)))")
        }
        return (folder, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, writer)
    }

    private static func copy(_ input: InputFile, to descriptor: Int32, folder: String) throws {
        var buffer = [UInt8](repeating: 0, count: defaultChunkSize)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
            if count == 0 { return }
            try buffer.withUnsafeBytes {
                try POSIX.writeAll(
                    descriptor, UnsafeRawBufferPointer(rebasing: $0[..<count]),
                    to: "a temporary file in \(folder) holding \(input.displayName)")
            }
        }
    }
}

import Foundation

/// The id of a process that has run and ended: what a killed run leaves in the
/// names of its temporary files. (An id can be reused by a new process, but not
/// within the moment a test needs it.)
public func deadProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exit 0"]
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

/// Creates an empty file at `path` holding `text`.
public func touch(_ path: String, _ text: String = "") throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

import ArgumentParser
import IngestKit

/// `--records` checked against the inputs before anything is read or written.
extension ImportCommand {
    /// A one-step `--records` (`item`) names the items of a top-level JSON array or
    /// the values of JSON Lines; in XML a path names the records' parent, then the
    /// records. Refuses it (64) before any work when an input is XML: by `--from`, by
    /// its name, or, for a regular file with a name that does not tell, by its first
    /// bytes. Standard input and pipes are left to the import, which refuses the same
    /// way once it has seen their first bytes.
    func validateRecordPathFitsInputs() throws {
        guard let records = mapping.records, let path = try? RecordPath(records), path.steps.count == 1 else { return }
        for name in input.inputs where isXML(name) {
            throw ValidationError(
                "--records \(records): \(name) is XML, where a record path names the records' parent, then the records (people/person); a single step names the items of a top-level JSON array or of JSON Lines."
            )
        }
    }

    /// Whether the input `name` is XML, as far as can be told without consuming it.
    private func isXML(_ name: String) -> Bool {
        if let format = input.format { return format == .xml }
        if let format = InputFormat.fromExtension(of: name) { return format == .xml }
        guard InputResemblance.isRegularFile(name), let file = try? InputFile(path: name).decompressed() else {
            return false
        }
        return (try? InputFormat.detect(file)) == .xml
    }
}

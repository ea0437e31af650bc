import ArgumentParser
import IngestKit

/// `--schema` and what goes with it: upserts and rejected records.
extension IngestCommand {
    func validateMappingSchemaOptions() throws {
        guard schema != nil else {
            if upsert || onError != .fail || rejects != nil || maxErrors != nil {
                throw ValidationError("--upsert, --on-error, --rejects and --max-errors need --schema: the automatic mapping has no keys and accepts every record.")
            }
            return
        }
        if records != nil { throw ValidationError("--schema says where the records are: drop --records (or set \"records\" in the schema).") }
        if xpath != nil { throw ValidationError("--schema and --xpath exclude each other: the schema's records paths select the records.") }
        if parseOnly { throw ValidationError("--parse-only maps nothing, so --schema has no effect: drop one of them.") }
        if upsert {
            guard to == .db else { throw ValidationError("--upsert updates database rows: it needs --to db.") }
            guard !replace else { throw ValidationError("--upsert updates an existing database; --replace rebuilds it: pick one.") }
        }
        if onError == .fail, rejects != nil || maxErrors != nil {
            throw ValidationError("--rejects and --max-errors apply to records set aside: add --on-error skip.")
        }
        if let maxErrors, maxErrors < 1 { throw ValidationError("--max-errors must be at least 1.") }
        if let rejects, rejects == "-" { throw ValidationError("--rejects needs a file name; standard output may hold the output.") }
    }

    /// Which names the schema's records carry: columns, plist keys, archive keys or field names.
    var schemaOutput: CompiledSchema.Output {
        switch to {
        case .db: .database
        case .plist: .plist
        case .archive: .archive
        case .json, .ndjson: .json
        }
    }
}

extension RecordRejects.Mode: ExpressibleByArgument {}

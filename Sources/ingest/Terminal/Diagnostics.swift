import IngestKit

/// How the command words the library's errors: the library says what is wrong; this
/// adds the option that changes the outcome, from the error's ``/IngestCore/IngestError/Reason``.
enum Diagnostics {
    /// `file:line:column: message` and, where one helps, what to type instead.
    static func describe(_ error: IngestError) -> String {
        guard let reason = error.reason, let hint = hint(for: reason) else { return error.description }
        return "\(error.description)\(hint)"
    }

    static func hint(for reason: IngestError.Reason) -> String? {
        switch reason.code {
        case .depthLimit:
            (reason.limit ?? 0) < ParseLimits.maxSupportedDepth
                ? " (raise the limit with --max-depth)" : " (the deepest nesting ingest reads)"
        case .textLimit: " (raise the limit with --max-text-bytes)"
        case .libxml2Limit: " (--huge lifts libxml2's limits, for trusted inputs)"
        case .treeTooLarge: " (--max-tree-bytes); stream it with --records PATH instead, or raise --max-tree-bytes"
        case .encodingNeedsLibXML2: "; --parser libxml2 reads it"
        case .moreThanOneJSONDocument: " (use --nl for JSON Lines or concatenated documents)"
        case .invalidRecordPath: " (--records)"
        case .recordPathMatchedNothing:
            reason.suggestions.isEmpty
                ? " (--records)"
                : " (--records); records are at \(reason.suggestions.prefix(5).joined(separator: ", "))"
        case .schemaRecordsMatchedNothing:
            reason.suggestions.isEmpty
                ? " (\"records\" in the schema)"
                : "; records are at \(reason.suggestions.prefix(5).joined(separator: ", ")) (\"records\" in the schema)"
        case .expressionMatchedNothing: " (--xpath)"
        case .unboundPrefixes:
            ": bind \(reason.prefixes.count == 1 ? "it" : "them") with "
                + (reason.prefixes.isEmpty
                    ? "--ns PREFIX=URI" : reason.prefixes.map { "--ns \($0)=URI" }.joined(separator: " "))
        case .outputExists:
            reason.appendable == true
                ? "; use --replace to rebuild it or --append to add to it" : "; use --replace to rebuild it"
        case .outputBusy:
            " (--lock-timeout SECONDS waits longer; or run it again later)"
        case .missingColumn: "; --alter would add it"
        case .recordRejected: "; --on-error skip --rejects FILE sets such records aside"
        case .tooManyRejects: " (--max-errors \(reason.limit ?? 0))"
        case .serverUnavailable: reason.serverFailure.map(hint(for:))
        default: nil
        }
    }

    /// What to do about a database server that could not be used; the exit status
    /// (75) tells a scheduler to retry.
    static func hint(for failure: IngestError.ServerFailure) -> String {
        switch failure {
        case .unreachable: "; check --db and that the server is running. Nothing was written; run again later"
        case .connectionLost, .busy: ". Nothing was written; run again later"
        case .loginRefused: "; check the user in --db and the password in PGPASSWORD or ~/.pgpass"
        case .passwordMissing: "; set PGPASSWORD or add a line for the server to ~/.pgpass (never a password in --db)"
        case .conflict: ": another import wrote the same rows at once. Nothing was written; run again"
        }
    }
}

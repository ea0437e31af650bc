import ArgumentParser
import IngestKit
import Logging

/// `--validate`: every input is checked against the schema before any output is
/// opened, so an invalid input leaves an existing output as it was.
extension IngestCommand {
    func validateSchemaOption() throws {
        guard let validationSchemaPath else { return }
        guard ValidationSchema.Kind(path: validationSchemaPath) != nil else {
            throw ValidationError("--validate takes an XML Schema (.xsd) or a RELAX NG schema in XML syntax (.rng); cannot tell what \(validationSchemaPath) is.")
        }
        if nl || from == .json || from == .jsonLines {
            throw ValidationError("--validate checks XML against a schema; it cannot check JSON.")
        }
    }

    /// Validates every input, printing each problem (the first 20 per input) as
    /// `file:line[:column]: message`; throws a `.data` error if any input is invalid.
    /// Standard input is copied to an unnamed temporary file first, since it is read
    /// twice: returns the copy for the import to read.
    func validateInputs(format: InputFormat?, logger: Logger) throws -> InputFile? {
        guard let validationSchemaPath else { return nil }
        let schema = try ValidationSchema(contentsOf: validationSchemaPath)
        var standardInput: InputFile?
        var invalid: [ValidationReport] = []
        for path in inputs {
            let input: InputFile
            if path == "-" {
                let copies = try InputFile.spoolingStandardInput(readers: 2)
                input = copies[0]
                standardInput = copies[1]
            } else {
                input = try InputFile(path: path)
            }
            guard try (format ?? InputFormat.detect(input)) == .xml else {
                throw IngestError(.usage, "--validate checks XML against a schema, and \(input.displayName) is JSON")
            }
            logger.info("validating \(input.displayName) against \(validationSchemaPath)")
            let report = try schema.validate(input)
            guard !report.isValid else { continue }
            for problem in report.problems { StandardError.write("ingest: \(problem)\n") }
            if report.problemCount > report.problems.count {
                StandardError.write("ingest: \(report.file): … and \(report.problemCount - report.problems.count) more problems\n")
            }
            invalid.append(report)
        }
        guard let first = invalid.first else { return standardInput }
        if invalid.count == 1 {
            throw IngestError(.data, "not valid against \(validationSchemaPath) (\(first.problemCount) problem\(first.problemCount == 1 ? "" : "s")); nothing written",
                              file: first.file)
        }
        throw IngestError(.data, "\(invalid.count) of \(inputs.count) inputs are not valid against \(validationSchemaPath); nothing written")
    }
}

extension IngestCommand.Job {
    /// This job with `standardInput` as what `-` reads, when it reads `-` at all.
    func reading(_ standardInput: InputFile?) -> Self {
        var job = self
        if inputs.contains("-") { job.standardInput = standardInput }
        return job
    }
}

import ArgumentParser
import IngestKit

/// Any error a command ends with, as the words it prints and the sysexits status it
/// exits with: a library error with its hint, or a usage error (64).
struct CommandFailure {
    let message: String
    let status: Int32

    init(_ error: any Error) {
        switch error {
        case let error as IngestError:
            message = Diagnostics.describe(error)
            status = error.kind.exitCode
        case let error as JobFailures:
            message = error.message
            status = error.status
        case let error as ValidationError:
            message = error.message
            status = 64
        default:
            message = "\(error)"
            status = 70  // EX_SOFTWARE: a failure the command did not foresee
        }
    }
}

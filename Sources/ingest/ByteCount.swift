import ArgumentParser

/// A size in bytes as typed on the command line: `268435456`, `64K`, `512M`, `2G`
/// (powers of 1024; `512MiB` and `512MB` are read as `512M`).
struct ByteCount: ExpressibleByArgument, Equatable, CustomStringConvertible {
    let value: Int

    init(_ value: Int) {
        self.value = value
    }

    init?(argument: String) {
        let digits = argument.prefix { $0.isASCII && $0.isNumber }
        let shift: Int
        switch argument.dropFirst(digits.count).lowercased() {
        case "", "b": shift = 0
        case "k", "kb", "kib": shift = 10
        case "m", "mb", "mib": shift = 20
        case "g", "gb", "gib": shift = 30
        default: return nil
        }
        guard let number = Int(digits) else { return nil }
        let (value, overflow) = number.multipliedReportingOverflow(by: 1 << shift)
        guard !overflow else { return nil }
        self.value = value
    }

    var description: String { String(value) }
}

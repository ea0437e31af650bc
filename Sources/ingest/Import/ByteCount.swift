import ArgumentParser

/// A size in bytes as typed on the command line and printed back: `268435456`,
/// `64K`, `512M`, `2G` (powers of 1024; `512MiB` and `512MB` read as `512M`).
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

    /// The largest unit that divides the value exactly: `64M`, `1536K`, `100`.
    var description: String {
        for (suffix, shift) in [("G", 30), ("M", 20), ("K", 10)] where value != 0 && value % (1 << shift) == 0 {
            return "\(value >> shift)\(suffix)"
        }
        return String(value)
    }

    var defaultValueDescription: String { description }

    /// A byte count for people: `187.4 MiB`, `12 KiB`, `900 B`.
    static func readable(_ bytes: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : "\(Decimal(value, places: 1)) \(units[unit])"
    }
}

/// A number printed with a fixed count of decimals, without Foundation's formatters.
struct Decimal: CustomStringConvertible {
    let value: Double
    let places: Int

    init(_ value: Double, places: Int) {
        self.value = value
        self.places = places
    }

    var description: String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        let whole = scaled / scale, fraction = abs(scaled % scale)
        guard places > 0 else { return "\(whole)" }
        let digits = String(fraction)
        return "\(whole).\(String(repeating: "0", count: places - digits.count))\(digits)"
    }
}

import IngestCore
/// The class name a keyed archive gives the objects of a table when `--class` is
/// not given: the table name singularised, then capitalised — `people` → `Person`,
/// `items` → `Item`, `categories` → `Category`, `boxes` → `Box`, `item` → `Item`.
///
/// Singular: a few irregular plurals (people, children, men, women, mice, geese,
/// feet, teeth); `-ies` → `-y`; `-sses`, `-shes`, `-ches`, `-xes`, `-zes` lose `-es`;
/// another final `s` is dropped unless the word ends in `ss`, `us` or `is`. Only the
/// local part of a prefixed name is used (`dc:entry` → `Entry`), and characters other
/// than letters, digits and `_` become `_`. An empty name gives `Record`.
public enum ArchiveClassName {
    /// The class name for the objects of `table`, by the rule above.
    public static func forTable(_ table: String) -> String {
        let local = table.split(separator: ":").last.map(String.init) ?? table
        let singular = Self.singular(local)
        let cleaned = String(
            singular.unicodeScalars.map { scalar -> Character in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
                    ? Character(scalar) : "_"
            })
        guard let first = cleaned.first else { return "Record" }
        return first.uppercased() + cleaned.dropFirst()
    }

    private static let irregular = [
        "people": "person", "children": "child", "men": "man", "women": "woman",
        "mice": "mouse", "geese": "goose", "feet": "foot", "teeth": "tooth"
    ]

    static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        if let singular = irregular[lower] {
            // Keep the word's own first letter case (People → Person).
            return word.first!.isUppercase ? singular.prefix(1).uppercased() + singular.dropFirst() : singular
        }
        if lower.count > 3, lower.hasSuffix("ies") { return word.dropLast(3) + "y" }
        for suffix in ["sses", "shes", "ches", "xes", "zes"] where lower.hasSuffix(suffix) {
            return String(word.dropLast(2))
        }
        if lower.count > 1, lower.hasSuffix("s"), !lower.hasSuffix("ss"), !lower.hasSuffix("us"), !lower.hasSuffix("is")
        {
            return String(word.dropLast())
        }
        return word
    }
}

/// Neuburg's `Person`: a first and a last name.
public struct Person: Equatable, Sendable, CustomStringConvertible {
    public var firstName: String
    public var lastName: String

    public init(firstName: String = "", lastName: String = "") {
        self.firstName = firstName
        self.lastName = lastName
    }

    /// Sets the property called `key` to `value`, as Neuburg's key–value coding
    /// (`setValue:forKey:`) does; returns `false` for a key `Person` has no property for.
    @discardableResult
    public mutating func setValue(_ value: String, forKey key: String) -> Bool {
        switch key {
        case "firstName": firstName = value
        case "lastName": lastName = value
        default: return false
        }
        return true
    }

    /// `Matt Neuburg`.
    public var description: String { "\(firstName) \(lastName)" }
}

/// A sink that wants to know where each table's records are in the document, as
/// IngestSchema's `SchemaInference` does to write an entity's `records` path.
///
/// The automatic mapping tells it when it names a table for a kind of record
/// element — once per collection and kind, before that kind's first record — and
/// never per record, so a sink that does not adopt the protocol pays nothing.
public protocol RecordLocationObserver: AnyObject {
    /// The records of `table` are the elements at `path`: element names from the
    /// document element down to the record element, `["people", "person"]`.
    ///
    /// - With a record path (`--records`), its steps as given (`*` included), except
    ///   that a last step `*` is the record element's name.
    /// - JSON: the first step is the top-level value, named after the input; array
    ///   items are `item` (`["folks", "people", "item"]`). A document that is one
    ///   record is just that step.
    ///
    /// A later ``RecordSink/renameTable(_:to:)`` renames `table` as usual.
    func mapping(named table: String, forRecordsAt path: [String])
}

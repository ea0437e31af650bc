import IngestCore
import CLibXML2

/// The refusal of a reference to an external entity, which no parser or mode of
/// ingest ever loads (a file or URL named by the document could read what it should
/// not, or hang on the network): one message for Expat, libxml2's push parser, its
/// tree and the validators.
package enum ExternalEntity {
    /// `external entity "x.ent" refused: ingest never loads external entities`, where
    /// `what` is the entity's system identifier, or its name when it has none.
    package static func refusal(_ what: String) -> String {
        "external entity \"\(what)\" refused: ingest never loads external entities"
    }

    /// ``refusal(_:)`` for libxml2's declaration `entity`, referenced as `name`.
    package static func refusal(_ entity: xmlEntityPtr, name: UnsafePointer<xmlChar>) -> String {
        refusal(entity.pointee.SystemID.map { String(cString: $0) } ?? String(cString: name))
    }
}

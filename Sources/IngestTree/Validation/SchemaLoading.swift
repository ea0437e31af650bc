import IngestCore
import CLibXML2
import Foundation

/// Compiles schemas without the network.
///
/// libxml2 reads a schema and whatever it includes or imports through its process-wide
/// external entity loader, which would fetch `http://` locations. While a schema
/// compiles, that loader is swapped for libxml2's `xmlNoNetExternalEntityLoader`,
/// which refuses network URLs and reads local files as before, and then put back.
/// Compilations are serialised by a lock; other libxml2 work in the process that
/// runs meanwhile is also kept off the network, never given more.
enum SchemaLoading {
    private static let lock = NSLock()

    static func withoutNetwork<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        let previous = xmlGetExternalEntityLoader()
        xmlSetExternalEntityLoader(xmlNoNetExternalEntityLoader)
        defer { xmlSetExternalEntityLoader(previous) }
        return try body()
    }

    /// The process-wide loader's address, for tests that it is put back: read under
    /// the lock, so never the loader of a compilation running meanwhile.
    static var currentLoader: UnsafeRawPointer? {
        lock.lock()
        defer { lock.unlock() }
        return unsafeBitCast(xmlGetExternalEntityLoader(), to: UnsafeRawPointer?.self)
    }
}

import CZlib

/// gzip (RFC 1952) through zlib, for the bodies the test server sends
/// `Content-Encoding: gzip`.
enum Gzip {
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // 31: a gzip header and trailer around the deflate stream.
        let status = deflateInit2_(&stream, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                                   Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "deflateInit2 failed: \(status)")
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
        let count = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                let result = deflate(&stream, Z_FINISH)
                precondition(result == Z_STREAM_END, "deflate did not finish: \(result)")
                return target.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(count))
    }
}

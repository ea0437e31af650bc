import CZlib

/// gzip (RFC 1952) through zlib, for the bodies the test server sends
/// `Content-Encoding: gzip`.
enum Gzip {
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // 31: a gzip header and trailer around the deflate stream.
        let status = deflateInit2_(
            &stream, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
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

    /// gzip of `prefix`, then `piece` `count` times, then `suffix`, compressed a
    /// piece at a time: a large body (a compression bomb) without holding it.
    static func compress(prefix: [UInt8], repeating piece: [UInt8], count: Int, suffix: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        let status = deflateInit2_(
            &stream, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "deflateInit2 failed: \(status)")
        defer { deflateEnd(&stream) }
        var result: [UInt8] = []
        var output = [UInt8](repeating: 0, count: 1 << 16)
        func push(_ bytes: [UInt8], _ flush: Int32) {
            var input = bytes
            input.withUnsafeMutableBufferPointer { source in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                repeat {
                    let produced = output.withUnsafeMutableBufferPointer { target -> Int in
                        stream.next_out = target.baseAddress
                        stream.avail_out = UInt32(target.count)
                        let code = deflate(&stream, flush)
                        precondition(code == Z_OK || code == Z_STREAM_END || code == Z_BUF_ERROR, "deflate: \(code)")
                        return target.count - Int(stream.avail_out)
                    }
                    result += output.prefix(produced)
                } while stream.avail_out == 0 || (flush == Z_FINISH && stream.avail_in > 0)
            }
        }
        push(prefix, Z_NO_FLUSH)
        for _ in 0..<count { push(piece, Z_NO_FLUSH) }
        push(suffix, Z_FINISH)
        return result
    }
}

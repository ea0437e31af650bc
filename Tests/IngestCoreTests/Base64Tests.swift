import Foundation
import Testing
@testable import IngestCore
import IngestTesting
import IngestTestSupport

@Suite struct Base64Tests {
    @Test func rfc4648Vectors() {
        let vectors = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==",
            "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"
        ]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded, "\(plain)")
        }
    }

    @Test func agreesWithFoundationForEveryLengthAndByte() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<100 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString(), "\(bytes)")
        }
        let everyByte = (0...255).map(UInt8.init)
        #expect(Base64.encode(everyByte) == Data(everyByte).base64EncodedString())
        #expect(Base64.encodedCount(256) == Data(everyByte).base64EncodedString().utf8.count)
    }
}

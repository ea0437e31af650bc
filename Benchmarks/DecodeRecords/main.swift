// Streams a benchmark data set into a Decodable type with IngestParsers.records and
// prints how many records it read: the measure of issue 6's "streams the
// 500 000-record set with peak RSS at most 64 MB". Run through Benchmarks/run.sh.
//
//   ingest-decode-bench people.xml people/person
//   ingest-decode-bench people.json people/item
import Foundation
import IngestCore
import IngestParsers

struct Person: Decodable {
    let id: Int
    let active: Bool
    let firstName: String
    let lastName: String
    let email: String
    let born: String
    let score: Double
    let bio: String
    let tags: [String]
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: ingest-decode-bench FILE RECORD-PATH\n".utf8))
    exit(64)
}
/// Reads every record, off the main actor.
@concurrent func measure(_ file: String, _ path: String) async throws -> (count: Int, scoreSum: Double) {
    var count = 0
    var scoreSum = 0.0
    for try await person in IngestParsers.records(Person.self, at: path, from: URL(fileURLWithPath: file)) {
        count += 1
        scoreSum += person.score
    }
    return (count, scoreSum)
}

do {
    let (count, scoreSum) = try await measure(arguments[1], arguments[2])
    print("\(count) records, mean score \(count > 0 ? scoreSum / Double(count) : 0)")
} catch {
    FileHandle.standardError.write(Data("ingest-decode-bench: \(error)\n".utf8))
    exit(65)
}

import Foundation
import Testing

@Suite("--replace and --append")
struct OutputModeTests {
    static let villains = """
        <people>
          <person><firstName>Boris</firstName><lastName>Badenov</lastName></person>
          <person><firstName>Natasha</firstName><lastName>Fatale</lastName></person>
        </people>
        """

    @Test("--replace with a different input rebuilds: old rows gone, new rows present")
    func replaceRebuilds() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("villains.xml", Self.villains)
        try #require(try box.run(["folks.xml", "--out", "out.db", "-q"]).status == 0)

        let result = try box.run(["villains.xml", "--out", "out.db", "--replace", "-q"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("out.db", "SELECT firstName, lastName FROM people")
                == [["Boris", "Badenov"], ["Natasha", "Fatale"]])
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test("--replace drops tables the new input does not have")
    func replaceDropsOldTables() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("things.xml", "<things><thing><name>spoon</name></thing></things>")
        try #require(try box.run(["folks.xml", "--out", "out.db", "-q"]).status == 0)

        let result = try box.run(["things.xml", "--out", "out.db", "--replace", "-q"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.tables("out.db") == ["things"])
        #expect(try box.rows("out.db", "SELECT name FROM things") == [["spoon"]])
    }

    @Test("--replace with no existing output just creates it")
    func replaceWithoutExisting() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--replace", "-q"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people") == folks)
    }

    @Test("--append twice gives every row twice")
    func appendTwice() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let first = try box.run(["folks.xml", "--append", "-q"])
        let second = try box.run(["folks.xml", "--append", "-q"])

        #expect(first.status == 0, "\(first)")
        #expect(second.status == 0, "\(second)")
        #expect(try box.rows("folks.db", "SELECT count(*) FROM people") == [["6"]])
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people ORDER BY rowid") == folks + folks)
    }

    @Test("--append with an extra field adds the column and keeps the old rows")
    func appendWidens() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("aged.xml", "<people><person><firstName>A</firstName><lastName>B</lastName><age>7</age></person></people>")
        try #require(try box.run(["folks.xml", "-q"]).status == 0)

        let result = try box.run(["aged.xml", "--out", "folks.db", "--append", "-q"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.columns("folks.db", table: "people") == ["firstName", "lastName", "age"])
        #expect(try box.rows("folks.db", "SELECT firstName, lastName, age FROM people ORDER BY rowid")
                == folks.map { $0 + [nil] } + [["A", "B", "7"]])
    }
}

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

    @Test("Several inputs into one output: each field goes to its own column, whatever order the inputs name them in")
    func severalInputsWithFieldsInAnotherOrder() throws {
        let box = try Sandbox()
        try box.write("a.xml", "<r><x><a>1</a><b>2</b></x></r>")
        try box.write("b.xml", "<r><x><b>3</b><c>5</c><a>4</a></x></r>")
        try box.write("c.json", #"{"r": [{"c": 6, "b": 7}]}"#)

        let result = try box.run(["a.xml", "b.xml", "--out", "ab.db"])
        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("ab.db", "SELECT a, b, c FROM r ORDER BY rowid") == [["1", "2", nil], ["4", "3", "5"]])

        let mixed = try box.run(["a.xml", "c.json", "--out", "mixed.db"])
        #expect(mixed.status == 0, "\(mixed)")
        #expect(try box.rows("mixed.db", "SELECT a, b, c FROM r ORDER BY rowid") == [["1", "2", nil], [nil, "7", "6"]])
    }

    @Test("--replace with a different input rebuilds: old rows gone, new rows present")
    func replaceRebuilds() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("villains.xml", Self.villains)
        try #require(try box.run(["folks.xml", "--out", "out.db", "-q"]).status == 0)

        let result = try box.run(["villains.xml", "--out", "out.db", "--replace", "-q"])

        #expect(result.status == 0, "\(result)")
        #expect(
            try box.rows("out.db", "SELECT firstName, lastName FROM people")
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

    /// Two people, the second with a field folks.db's people table has no column for.
    static let aged = """
        <people>
          <person><firstName>A</firstName><lastName>B</lastName></person>
          <person><firstName>C</firstName><lastName>D</lastName><age>7</age></person>
        </people>
        """

    @Test(
        "--append with a field the existing table lacks exits 65, names table, field and position, and leaves the database byte for byte"
    )
    func appendRefusesNewField() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("aged.xml", Self.aged)
        try #require(try box.run(["folks.xml", "-q"]).status == 0)
        let before = try box.contents("folks.db")

        let result = try box.run(["aged.xml", "--out", "folks.db", "--append"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("aged.xml:3:3:"), "\(result)")
        #expect(result.stderr.contains("table people"), "\(result)")
        #expect(result.stderr.contains("field age"), "\(result)")
        #expect(result.stderr.contains("--alter"), "\(result)")
        #expect(try box.contents("folks.db") == before)
        #expect(try box.listing() == ["aged.xml", "folks.db", "folks.xml"], "no journal or temporary file left")
    }

    @Test("--append --alter adds the column, keeps the old rows (NULL in it) and says so with --verbose")
    func appendAlterWidens() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("aged.xml", Self.aged)
        try #require(try box.run(["folks.xml", "-q"]).status == 0)

        let result = try box.run(["aged.xml", "--out", "folks.db", "--append", "--alter", "--verbose"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("added column age to table people"), "\(result)")
        #expect(
            result.stderrLines.last?.hasPrefix("ingest: 2 records in 1 table (people) to folks.db; ") == true,
            "\(result)")
        #expect(try box.columns("folks.db", table: "people") == ["firstName", "lastName", "age"])
        #expect(try box.rows("folks.db", "SELECT count(*) FROM people") == [["5"]])
        #expect(
            try box.rows("folks.db", "SELECT firstName, lastName, age FROM people ORDER BY rowid")
                == folks.map { $0 + [nil] } + [["A", "B", nil], ["C", "D", "7"]])
    }

    @Test("--append into a database without the table creates it and lets it grow without --alter")
    func appendNewTableGrows() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write(
            "things.xml",
            "<things><thing><name>spoon</name></thing><thing><name>fork</name><tines>4</tines></thing></things>")
        try #require(try box.run(["folks.xml", "-q"]).status == 0)

        let result = try box.run(["things.xml", "--out", "folks.db", "--append", "-q"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.columns("folks.db", table: "things") == ["name", "tines"])
        #expect(try box.rows("folks.db", "SELECT name, tines FROM things") == [["spoon", nil], ["fork", "4"]])
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people") == folks)
    }

    @Test(
        "--alter with --replace, with a new database, or with --dry-run is accepted and changes nothing else",
        arguments: [["--replace"], [], ["--append", "--dry-run"]])
    func alterHarmless(arguments: [String]) throws {
        let box = try Sandbox()
        try box.write("aged.xml", Self.aged)

        let result = try box.run(["aged.xml", "--alter", "-q"] + arguments)

        #expect(result.status == 0, "\(result)")
        if arguments.contains("--dry-run") {
            #expect(try box.listing() == ["aged.xml"])
        } else {
            #expect(try box.columns("aged.db", table: "people") == ["firstName", "lastName", "age"])
            #expect(try box.rows("aged.db", "SELECT age FROM people") == [[nil], ["7"]])
        }
    }

    @Test("ingest help import lists --alter and shows it in an example")
    func helpShowsAlter() throws {
        let result = try Sandbox().run(["help", "import"])
        let help = String(decoding: result.stdout, as: UTF8.self)

        #expect(result.status == 0, "\(result)")
        #expect(help.contains("--alter"), "\(help)")
        #expect(help.contains("ingest nightly.xml --append --alter --out archive.db"), "\(help)")
    }

    @Test(
        "--alter with an output other than a database is a usage error (64), and nothing is written",
        arguments: ["plist", "archive", "json", "ndjson"])
    func alterNeedsADatabase(kind: String) throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--alter", "--to", kind])

        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--alter"), "\(result)")
        #expect(try box.listing() == ["folks.xml"])
    }
}

import Foundation
import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTestSupport

/// A document whose DOCTYPE names a well-known public DTD reads the entities that DTD
/// declares (HTML 4's 253), never loading it; any other entity an unread external
/// subset might declare is kept as written with one warning per name (issue 27,
/// item 11). Both streaming parsers alike.
@Suite struct KnownDTDEntityTests {
    typealias Parser = UndeclaredEntityParserTests.Parser

    final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [ParseWarning] = []
        func add(_ warning: ParseWarning) { lock.withLock { list.append(warning) } }
        var all: [ParseWarning] { lock.withLock { list } }
    }

    static let parsers = UndeclaredEntityParserTests.parsers

    static let rss091 =
        #"<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">"#

    static let xhtml = [
        #"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">"#,
        #"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">"#,
        #"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Frameset//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-frameset.dtd">"#,
        #"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">"#,
        #"<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">"#,
        #"<!DOCTYPE html SYSTEM "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">"#
    ]

    func events(_ xml: String, _ which: Parser) throws -> (events: [String], warnings: [ParseWarning]) {
        let warnings = Warnings(), log = EventLog()
        try which.parser(onWarning: { warnings.add($0) }).parse(
            bytes: Array(xml.utf8), into: log, displayName: "doc.xml")
        return (log.events, warnings.all)
    }

    @Test("The table is HTML 4's 252 entities and XHTML's apos")
    func table() {
        #expect(HTMLEntities.all.count == 253)
        #expect(Set(HTMLEntities.all.map(\.name)).count == 253)
        #expect(HTMLEntities.codePoint(named: "laquo") == 171)
        #expect(HTMLEntities.codePoint(named: "nbsp") == 160)
        #expect(HTMLEntities.codePoint(named: "euro") == 8364)
        #expect(HTMLEntities.codePoint(named: "thetasym") == 977)
        #expect(KnownDTD.entities.count == 248)
    }

    @Test("Every one of the 253 entities, in content and in an attribute, is its character", arguments: parsers)
    func everyEntity(_ which: Parser) throws {
        let references = HTMLEntities.all.map { "&\($0.name);" }.joined(separator: "|")
        let expected = HTMLEntities.all.map { String(Character(Unicode.Scalar($0.codePoint)!)) }.joined(separator: "|")
        let xml = "\(Self.rss091)<rss><t k=\"\(references)\">\(references)</t></rss>"
        let (events, warnings) = try events(xml, which)
        #expect(events == ["<rss>", "<t k=\(expected)>", expected, "</t>", "</rss>"])
        #expect(warnings.isEmpty, "\(warnings)")
        // Each one alone too: a wrong scalar names itself.
        for (name, codePoint) in HTMLEntities.all {
            let (one, _) = try self.events("\(Self.rss091)<rss>&\(name);</rss>", which)
            #expect(one == ["<rss>", String(Character(Unicode.Scalar(codePoint)!)), "</rss>"], "&\(name);")
        }
    }

    @Test("XHTML 1.0 / 1.1 and HTML 4.01 public ids, and a known SYSTEM id alone", arguments: parsers)
    func xhtmlDoctypes(_ which: Parser) throws {
        for doctype in Self.xhtml {
            let (events, warnings) = try events(
                "\(doctype)<html><p a=\"&copy;\">&laquo;&nbsp;&euro;&raquo;</p></html>", which)
            #expect(events == ["<html>", "<p a=©>", "«\u{A0}€»", "</p>", "</html>"], "\(doctype)")
            #expect(warnings.isEmpty, "\(doctype): \(warnings)")
        }
    }

    @Test("An unknown public id: kept as written, one warning per name, with file:line:column", arguments: parsers)
    func unknownPublicID(_ which: Parser) throws {
        let xml =
            "<!DOCTYPE r PUBLIC \"-//Example//DTD Nothing//EN\" \"http://example.com/x.dtd\">\n<r><a>x &laquo;y&laquo;</a>\n<b>&foo;</b></r>"
        let (events, warnings) = try events(xml, which)
        #expect(events == ["<r>", "<a>", "x &laquo;y&laquo;", "</a>", "\n", "<b>", "&foo;", "</b>", "</r>"])
        #expect(
            warnings.map(\.message) == [
                #"entity 'laquo' is not declared in the document (the external DTD "http://example.com/x.dtd" may declare it, and ingest never reads external declarations): kept as written, "&laquo;""#,
                #"entity 'foo' is not declared in the document (the external DTD "http://example.com/x.dtd" may declare it, and ingest never reads external declarations): kept as written, "&foo;""#
            ])
        #expect(warnings.first?.file == "doc.xml")
        #expect(warnings.first?.position?.line == 2)
        #expect(warnings.last?.position?.line == 3)
        #expect(warnings.first?.description.hasPrefix("doc.xml:2:") == true, "\(warnings)")
    }

    @Test("RSS 0.91's entities expand, another is kept as written", arguments: parsers)
    func rssWithAnUnknownEntity(_ which: Parser) throws {
        let xml =
            "\(Self.rss091)\n<rss version=\"0.91\"><channel><title>A &laquo;b&raquo; &nbsp;c</title><item><title>x &eacute; &foo;</title></item></channel></rss>"
        let (events, warnings) = try events(xml, which)
        #expect(events.contains("A «b» \u{A0}c"), "\(events)")
        #expect(events.contains("x é &foo;"), "\(events)")
        #expect(warnings.count == 1 && warnings[0].message.hasPrefix("entity 'foo' is not declared"), "\(warnings)")
    }

    @Test("A SYSTEM-only DOCTYPE of an unknown DTD: nothing expands, all kept as written", arguments: parsers)
    func systemOnly(_ which: Parser) throws {
        let (events, warnings) = try events(#"<!DOCTYPE r SYSTEM "x.dtd"><r>&nbsp;&amp;</r>"#, which)
        #expect(events == ["<r>", "&nbsp;&", "</r>"])
        #expect(warnings.count == 1)
    }

    @Test("The internal subset's declaration of a name wins over the known DTD's", arguments: parsers)
    func internalSubsetOverrides(_ which: Parser) throws {
        let xml =
            #"<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "rss-0.91.dtd" [<!ENTITY nbsp "NB">]><rss a="&nbsp;">&nbsp;&copy;</rss>"#
        let (events, warnings) = try events(xml, which)
        #expect(events == ["<rss a=NB>", "NB©", "</rss>"])
        #expect(warnings.isEmpty)
    }

    @Test(
        "An unknown entity in an attribute value is still refused: both parsers drop it from the value",
        arguments: parsers)
    func attributeStillRefused(_ which: Parser) throws {
        let xml = "\(Self.rss091)<rss a=\"x&foo;\"/>"
        let error = #expect(throws: IngestError.self) { try events(xml, which) }
        #expect(
            error?.message.hasPrefix("entity 'foo' is not declared in the document") == true,
            "\(String(describing: error))")
    }

    @Test("Without an external subset an undeclared entity stays malformed (65)", arguments: parsers)
    func noExternalSubset(_ which: Parser) throws {
        for xml in ["<rss>&laquo;</rss>", "<!DOCTYPE rss [<!ENTITY x 'y'>]><rss>&laquo;</rss>"] {
            let error = #expect(throws: IngestError.self) { try events(xml, which) }
            #expect(error?.kind == .data, "\(xml)")
        }
    }

    @Test("standalone='yes' makes the undeclared entity an error again", arguments: parsers)
    func standalone(_ which: Parser) throws {
        let xml = "<?xml version=\"1.0\" standalone=\"yes\"?>\(Self.rss091)<rss>&foo;</rss>"
        #expect(throws: IngestError.self) { try events(xml, which) }
    }

    @Test("An internal parameter entity's declarations are read, by both parsers alike", arguments: parsers)
    func internalParameterEntity(_ which: Parser) throws {
        // Expat now parses parameter entities (for the external subset); an internal
        // one declares what libxml2 always read.
        let xml = #"<!DOCTYPE r [<!ENTITY % p "<!ENTITY e 'E'>"> %p;]><r>&e;</r>"#
        #expect(try events(xml, which).events == ["<r>", "E", "</r>"])
    }

    @Test("Billion laughs through parameter entities is refused", arguments: parsers)
    func parameterEntityLaughs(_ which: Parser) throws {
        var declarations = #"<!ENTITY % a0 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx">"#
        for level in 1...9 {
            declarations += "<!ENTITY % a\(level) \"\(String(repeating: "%a\(level - 1);", count: 10))\">"
        }
        let xml = "<!DOCTYPE r [\(declarations)<!ENTITY big \"%a9;\">]><r>&big;</r>"
        let error = #expect(throws: IngestError.self) { try events(xml, which) }
        #expect(error?.kind == .data)
    }

    @Test("Billion laughs behind a known DTD is refused as before", arguments: parsers)
    func amplificationStillBounded(_ which: Parser) throws {
        var declarations = #"<!ENTITY a0 "&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;">"#
        for level in 1...9 {
            let previous = "&a\(level - 1);"
            declarations += "<!ENTITY a\(level) \"\(String(repeating: previous, count: 10))\">"
        }
        let xml =
            #"<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "x" ["# + declarations
            + "]><rss>&a9;</rss>"
        let error = #expect(throws: IngestError.self) { try events(xml, which) }
        #expect(error?.kind == .data)
    }
}

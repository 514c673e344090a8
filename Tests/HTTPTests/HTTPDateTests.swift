import Foundation
import HTTP
import Testing

/// HTTP dates are read in all three forms RFC 9110 names, and nothing else is taken for a date.
@Suite struct HTTPDateTests {
    let expected = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test func theThreeFormsOfRFC9110AreRead() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("sun, 06 nov 1994 08:49:37 GMT") == expected, "month names are case-insensitive")
    }

    @Test(arguments: ["", "yesterday", "Sun, 06 Nov 1994 08:49:37", "Sun, 31 Feb 2024 08:49:37 GMT",
                      "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT",
                      "Sun, 06 Nov 1994 08:49:37 PST", "1994-11-06T08:49:37Z", "Sun, 06 Nov 99999 08:49:37 GMT"])
    func whatIsNoHTTPDateIsNil(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func formattingGivesTheIMFFixdateThatParsesBack() {
        #expect(HTTPDate.format(expected) == "Sun, 06 Nov 1994 08:49:37 GMT")
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        #expect(HTTPDate.parse(HTTPDate.format(now)) == now)
    }
}

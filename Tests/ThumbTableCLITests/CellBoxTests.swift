import ArgumentParser
import Testing
@testable import ThumbTableCLI

/// The one COLSxROWS parser (`render --size`, `--thumb-size`): what it takes, and what each refusal says.
@Suite struct CellBoxTests {
    let ceiling = CellBox(columns: 1000, rows: 500)

    func message(_ text: String) -> String? {
        do throws(ValidationError) {
            _ = try CellBox(parsing: text, option: "--size", ceiling: ceiling)
            return nil
        } catch {
            return error.message
        }
    }

    @Test(arguments: [("80x40", CellBox(columns: 80, rows: 40)), ("1X1", CellBox(columns: 1, rows: 1)),
                      ("1000x500", CellBox(columns: 1000, rows: 500)), ("007x08", CellBox(columns: 7, rows: 8))])
    func takesSizesUpToTheCeiling(_ text: String, _ expected: CellBox) throws {
        #expect(try CellBox(parsing: text, option: "--size", ceiling: ceiling) == expected)
    }

    @Test(arguments: ["80", "80x", "x40", "80x40x2", "a x b", "+80x40", "80.5x40", " 80x40", "", "８０x40", "-x3"])
    func aMalformedSizeIsShownTheForm(_ text: String) {
        #expect(message(text) == "--size must look like 40x20 (columns x rows), got '\(text)'")
    }

    @Test(arguments: ["-5x3", "0x3", "3x0", "3x-0", "-99999999999999999999999x3"])
    func aSizeBelowOneSaysSo(_ text: String) {
        #expect(message(text) == "--size \(text): columns and rows must both be at least 1")
    }

    @Test(arguments: ["100000x100000", "1001x500", "1000x501", "99999999999999999999999x3"])
    func aSizeOverTheCeilingNamesTheCeiling(_ text: String) {
        #expect(message(text) == "--size \(text) is larger than 1000x500, the largest it takes: "
                + "give at most 1000 columns and 500 rows")
    }
}

/// What separates the fields of a CSV: a comma (RFC 4180), a semicolon (what spreadsheets write
/// where the comma is the decimal separator, across most of Europe) or a tab.
public enum CSVDelimiter: String, Sendable, CaseIterable, FieldChoice {
    case comma
    case semicolon
    case tab

    /// The byte.
    public var byte: UInt8 {
        switch self {
        case .comma: UInt8(ascii: ",")
        case .semicolon: UInt8(ascii: ";")
        case .tab: UInt8(ascii: "\t")
        }
    }

    /// The delimiter that is `byte`, if any.
    public init?(byte: UInt8) {
        guard let found = Self.allCases.first(where: { $0.byte == byte }) else { return nil }
        self = found
    }

    /// How a message shows it: `,`, `;` or `a tab`.
    public var spelled: String {
        switch self {
        case .comma: ","
        case .semicolon: ";"
        case .tab: "a tab"
        }
    }

    /// Its name in a sentence: `commas`, `semicolons`, `tabs`.
    public var plural: String { rawValue == "comma" ? "commas" : rawValue == "semicolon" ? "semicolons" : "tabs" }

    /// The fields of `line` (a header) split at this delimiter, unquoted and trimmed, in lower case.
    public func names(in line: [UInt8]) -> [String] {
        var names: [String] = [], field: [UInt8] = [], inQuotes = false
        for byte in line {
            if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if byte == self.byte && !inQuotes {
                names.append(String(decoding: field, as: UTF8.self))
                field.removeAll()
            } else if byte != UInt8(ascii: "\r") || inQuotes {
                field.append(byte)
            }
        }
        names.append(String(decoding: field, as: UTF8.self))
        return names.map { BatchConverter.trimmed($0).lowercased() }
    }

    /// The delimiter whose split of the header `line` names every one of `required`, trying a
    /// comma, a semicolon and a tab in turn; nil when none does.
    public static func detect(in line: [UInt8], naming required: [String]) -> CSVDelimiter? {
        allCases.first { delimiter in
            let names = delimiter.names(in: line)
            return required.allSatisfy(names.contains)
        }
    }
}

/// HTML written by hand, safely: every value that reaches a page goes through ``escape(_:)``
/// (text and attribute values alike), so that markup in a value (a hostile query parameter, a
/// file path) is shown as text, never run.
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references: safe in text and in a
    /// quoted attribute value.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// `<tag attributes>content</tag>`, the attributes' values escaped (a nil value leaves the
    /// attribute out; an empty name-only attribute is written as a boolean one).
    static func element(_ tag: String, _ attributes: [(String, String?)] = [], _ content: String) -> String {
        "<\(tag)\(attributeText(attributes))>\(content)</\(tag)>"
    }

    /// ` name="value"` for each attribute with a value; a boolean attribute when the value is "".
    static func attributeText(_ attributes: [(String, String?)]) -> String {
        attributes.compactMap { name, value in
            guard let value else { return nil }
            return value.isEmpty && booleanAttributes.contains(name) ? " \(name)" : " \(name)=\"\(escape(value))\""
        }.joined()
    }

    /// The attributes whose presence is their value.
    static let booleanAttributes: Set<String> = ["selected", "checked", "required", "disabled", "open", "hidden"]

    /// A text input with its label (the label's `for` is the input's `id`).
    static func labelledInput(
        id: String, name: String, label: String, value: String?, type: String = "text",
        extra: [(String, String?)] = []
    ) -> String {
        element("label", [("for", id)], escape(label))
            + "<input\(attributeText([("id", id), ("name", name), ("type", type), ("value", value)] + extra))>"
    }

    /// A select with its label, `choices` as (value, words), `selected` chosen.
    static func labelledSelect(
        id: String, name: String, label: String, choices: [(String, String)], selected: String?
    ) -> String {
        let options = choices.map { value, words in
            element("option", [("value", value), ("selected", value == selected ? "" : nil)], escape(words))
        }.joined()
        return element("label", [("for", id)], escape(label))
            + element("select", [("id", id), ("name", name)], options)
    }
}
